package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/**
 * Values of {@code spec.updateStrategy.type} of a v1beta1 CloneSet (OpenKruise master's
 * {@code CloneSetUpdateStrategyType}); how pods are replaced is {@code rollingUpdate.podUpdatePolicy}
 * ({@link PodUpdateStrategyType}).
 */
public enum CloneSetUpdateStrategyType implements WireEnum {
    /** Pods are updated by the controller; the default. */
    ROLLING_UPDATE("RollingUpdate"),
    /** OpenKruise's legacy behaviour; refused by the webhook of both versions. */
    ON_DELETE("OnDelete");

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

    @Override
    public String toString() {
        return value;
    }
}
