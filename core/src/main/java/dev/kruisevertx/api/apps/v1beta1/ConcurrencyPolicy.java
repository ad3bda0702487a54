package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of an AdvancedCronJob's {@code spec.concurrencyPolicy} (OpenKruise's {@code ConcurrencyPolicy}). */
public enum ConcurrencyPolicy implements WireEnum {
    /** Runs may overlap (the default). */
    ALLOW("Allow"),
    /** A run is skipped while an earlier one is still active. */
    FORBID("Forbid"),
    /** The active runs are deleted and the new one starts. */
    REPLACE("Replace");

    private final String value;

    ConcurrencyPolicy(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    public static Optional<ConcurrencyPolicy> fromValue(String value) {
        return WireEnum.parse(ConcurrencyPolicy.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
