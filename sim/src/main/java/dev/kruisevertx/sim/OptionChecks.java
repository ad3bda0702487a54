package dev.kruisevertx.sim;

import java.time.Duration;

/** The range checks of the simulator's option setters: a bad value is refused naming the option. */
public final class OptionChecks {
    private OptionChecks() {
    }

    /** {@code value}, or an IllegalArgumentException when it is null or negative. */
    public static Duration notNegative(String option, Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(option + " must be >= 0");
        }
        return value;
    }

    /** {@code value}, or an IllegalArgumentException when it is negative. */
    public static double notNegative(String option, double value) {
        if (value < 0) {
            throw new IllegalArgumentException(option + " must be >= 0");
        }
        return value;
    }

    /** {@code value}, or an IllegalArgumentException when it is zero or negative. */
    public static double positive(String option, double value) {
        if (value <= 0) {
            throw new IllegalArgumentException(option + " must be > 0");
        }
        return value;
    }
}
