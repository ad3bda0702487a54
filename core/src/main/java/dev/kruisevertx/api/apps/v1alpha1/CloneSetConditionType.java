package dev.kruisevertx.api.apps.v1alpha1;

import java.util.Optional;

/** Condition types a CloneSet controller reports in {@code status.conditions}. */
public enum CloneSetConditionType {
    /** Creating or deleting pods or PVCs failed. */
    FAILED_SCALE("FailedScale"),
    /** Updating pods failed. */
    FAILED_UPDATE("FailedUpdate");

    private final String value;

    CloneSetConditionType(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    public static Optional<CloneSetConditionType> fromValue(String value) {
        if (value == null) {
            return Optional.empty();
        }
        for (CloneSetConditionType t : values()) {
            if (t.value.equals(value)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return value;
    }
}
