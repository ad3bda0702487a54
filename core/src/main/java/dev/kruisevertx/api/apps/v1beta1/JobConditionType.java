package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Types of a BroadcastJob's {@code status.conditions}. */
public enum JobConditionType implements WireEnum {
    COMPLETE("Complete"),
    FAILED("Failed");

    private final String value;

    JobConditionType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    public static Optional<JobConditionType> fromValue(String value) {
        return WireEnum.parse(JobConditionType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
