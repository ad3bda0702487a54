package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of {@code spec.updateStrategy.type} of an Advanced DaemonSet (OpenKruise's DaemonSetUpdateStrategyType). */
public enum DaemonSetUpdateStrategyType implements WireEnum {
    /** The controller moves pods to the new revision; the default. */
    ROLLING_UPDATE("RollingUpdate"),
    /** A pod gets the new revision only when someone deletes it. */
    ON_DELETE("OnDelete");

    private final String value;

    DaemonSetUpdateStrategyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<DaemonSetUpdateStrategyType> fromValue(String value) {
        return WireEnum.parse(DaemonSetUpdateStrategyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
