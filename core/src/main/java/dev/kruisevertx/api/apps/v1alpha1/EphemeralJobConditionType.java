package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Types of an EphemeralJob's conditions, as OpenKruise v1.9.0 writes them. */
public enum EphemeralJobConditionType implements WireEnum {
    JOB_SUCCEEDED("JobSucceeded"),
    JOB_FAILED("JobFailed"),
    JOB_ERROR("JobError"),
    INITIALIZED("Initialized"),
    MATCHED_EMPTY("MatchedEmpty");

    private final String value;

    EphemeralJobConditionType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    public static Optional<EphemeralJobConditionType> fromValue(String value) {
        return WireEnum.parse(EphemeralJobConditionType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
