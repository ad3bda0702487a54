package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of {@code updateStrategy.type} of a SidecarSet (OpenKruise's SidecarSetUpdateStrategyType). */
public enum SidecarSetUpdateStrategyType implements WireEnum {
    /** Existing pods keep their sidecars; only new pods get the new revision. */
    NOT_UPDATE("NotUpdate"),
    /** Sidecar images of existing pods are upgraded in place; the default. */
    ROLLING_UPDATE("RollingUpdate");

    private final String value;

    SidecarSetUpdateStrategyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<SidecarSetUpdateStrategyType> fromValue(String value) {
        return WireEnum.parse(SidecarSetUpdateStrategyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
