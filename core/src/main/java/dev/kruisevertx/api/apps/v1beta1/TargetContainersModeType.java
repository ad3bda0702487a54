package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of {@code containers[].resourcesPolicy.targetContainersMode} of a SidecarSet (OpenKruise's TargetContainersModeType). */
public enum TargetContainersModeType implements WireEnum {
    /** The variables are the sum over the target containers. */
    SUM("sum"),
    /** The variables are the largest value among the target containers. */
    MAX("max");

    private final String value;

    TargetContainersModeType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<TargetContainersModeType> fromValue(String value) {
        return WireEnum.parse(TargetContainersModeType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
