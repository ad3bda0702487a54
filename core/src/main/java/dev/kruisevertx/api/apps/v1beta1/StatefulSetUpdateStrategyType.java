package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/**
 * Values of {@code spec.updateStrategy.type} of an Advanced StatefulSet (Kubernetes'
 * {@code StatefulSetUpdateStrategyType}); parsed by {@link StatefulSetUpdateStrategy#typeValue()}.
 */
public enum StatefulSetUpdateStrategyType implements WireEnum {
    /** The controller moves pods to the new revision; the default. */
    ROLLING_UPDATE("RollingUpdate"),
    /** A pod gets the new revision only when someone deletes it. */
    ON_DELETE("OnDelete");

    private final String value;

    StatefulSetUpdateStrategyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<StatefulSetUpdateStrategyType> fromValue(String value) {
        return WireEnum.parse(StatefulSetUpdateStrategyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
