package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/**
 * Condition types a CloneSet controller reports in {@code status.conditions} (OpenKruise's
 * {@code CloneSetConditionType}; its Progressing type is not written by this project).
 */
public enum CloneSetConditionType implements WireEnum {
    /** Creating or deleting pods or PVCs failed. */
    FAILED_SCALE("FailedScale"),
    /** Updating pods failed. */
    FAILED_UPDATE("FailedUpdate");

    private final String value;

    CloneSetConditionType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<CloneSetConditionType> fromValue(String value) {
        return WireEnum.parse(CloneSetConditionType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
