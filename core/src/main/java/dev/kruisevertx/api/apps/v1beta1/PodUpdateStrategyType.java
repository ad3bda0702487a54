package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/**
 * Values of {@code spec.updateStrategy.rollingUpdate.podUpdatePolicy} of an Advanced StatefulSet (OpenKruise's
 * {@code PodUpdateStrategyType}); parsed by {@link RollingUpdateStatefulSetStrategy#podUpdatePolicyValue()}. The same
 * strings as CloneSet's {@code CloneSetUpdateStrategyType}, but a different field and Go type in OpenKruise.
 */
public enum PodUpdateStrategyType implements WireEnum {
    /** Delete the old pod and create a new one; the default. */
    RECREATE("ReCreate"),
    /** Update in place when only in-place changeable fields differ, otherwise recreate. */
    IN_PLACE_IF_POSSIBLE("InPlaceIfPossible"),
    /** Only ever update in place. */
    IN_PLACE_ONLY("InPlaceOnly");

    private final String value;

    PodUpdateStrategyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<PodUpdateStrategyType> fromValue(String value) {
        return WireEnum.parse(PodUpdateStrategyType.class, value);
    }

    /** InPlaceIfPossible or InPlaceOnly: pods may be updated in place. */
    public boolean inPlace() {
        return this != RECREATE;
    }

    @Override
    public String toString() {
        return value;
    }
}
