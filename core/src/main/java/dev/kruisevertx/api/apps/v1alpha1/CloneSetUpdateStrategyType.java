package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/**
 * Values of {@code spec.updateStrategy.type} of a v1alpha1 CloneSet (OpenKruise's {@code CloneSetUpdateStrategyType},
 * whose legacy OnDelete its webhook refuses too). The field itself is kept as a string so an unexpected value survives
 * a read (and can be rejected by validation with a clear message); {@link CloneSetUpdateStrategy#typeValue()} parses
 * it.
 */
public enum CloneSetUpdateStrategyType implements WireEnum {
    /** Delete the old pod and create a new one; the default. */
    RECREATE("ReCreate"),
    /** Update in place when only in-place changeable fields differ, otherwise recreate. */
    IN_PLACE_IF_POSSIBLE("InPlaceIfPossible"),
    /** Only ever update in place. */
    IN_PLACE_ONLY("InPlaceOnly");

    private final String value;

    CloneSetUpdateStrategyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<CloneSetUpdateStrategyType> fromValue(String value) {
        return WireEnum.parse(CloneSetUpdateStrategyType.class, value);
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
