package dev.kruisevertx.api.apps.v1alpha1;

import java.util.Optional;

/**
 * Values of {@code spec.updateStrategy.type} of a v1alpha1 CloneSet. The field itself is kept as a string so an
 * unexpected value survives a read (and can be rejected by validation with a clear message).
 */
public enum CloneSetUpdateStrategyType {
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

    public String value() {
        return value;
    }

    /** The type for a field value; empty for null or an unknown value. */
    public static Optional<CloneSetUpdateStrategyType> fromValue(String value) {
        if (value == null) {
            return Optional.empty();
        }
        for (CloneSetUpdateStrategyType t : values()) {
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
