package dev.kruisevertx.api.common;

import io.fabric8.kubernetes.api.model.IntOrString;

/**
 * Reads the int-or-percentage fields of the Kruise API (partition, maxUnavailable, maxSurge...): either an integer
 * or a string {@code "<n>%"}, the percentage taken of a total and rounded up or down as each field prescribes.
 */
public final class IntOrPercent {
    private IntOrPercent() {
    }

    /**
     * The absolute value of {@code value} against {@code total}, saturated to the int range (a huge percentage of a
     * large total never wraps around to a negative number).
     *
     * @param value   the field; null counts as 0
     * @param roundUp round a percentage up (ceil) instead of down (floor)
     * @throws IllegalArgumentException when the string is not a percentage such as {@code "20%"} (see
     *                                  {@link #percent(String)})
     */
    public static int scaledValue(IntOrString value, int total, boolean roundUp) {
        if (value == null) {
            return 0;
        }
        if (value.getIntVal() != null) {
            return value.getIntVal();
        }
        String s = value.getStrVal();
        if (s == null) {
            return 0;
        }
        long scaled = (long) percent(s) * total;
        long result = roundUp ? -Math.floorDiv(-scaled, 100L) : Math.floorDiv(scaled, 100L);
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, result));
    }

    /** True when the value is a percentage string. */
    public static boolean isPercent(IntOrString value) {
        return value != null && value.getIntVal() == null && value.getStrVal() != null;
    }

    /**
     * Checks that a percentage string is well formed.
     *
     * @throws IllegalArgumentException prefixed with {@code fieldPath} when it is not
     */
    public static void validate(IntOrString value, String fieldPath) {
        if (isPercent(value)) {
            try {
                percent(value.getStrVal());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(fieldPath + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * The number in a percentage string: ASCII digits followed by {@code '%'}, as Kubernetes' percent rule
     * ({@code [0-9]+%}) has it. Signs, fractions, spaces and digits of other scripts ({@code "٥٠%"}, which Java's own
     * number parsing would take) are refused, and so is a number past the int range.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public static int percent(String s) {
        int digits = s.length() - 1;
        if (digits < 1 || s.charAt(digits) != '%') {
            throw new IllegalArgumentException(malformed(s));
        }
        long n = 0;
        for (int i = 0; i < digits; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException(malformed(s));
            }
            n = n * 10 + (c - '0');
            if (n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("invalid value \"" + shown(s) + "\": the percentage is too large");
            }
        }
        return (int) n;
    }

    private static String malformed(String s) {
        return "invalid value \"" + shown(s) + "\": must be an integer or a percentage such as \"20%\"";
    }

    // A hostile value can be megabytes long; messages quote only its start.
    private static String shown(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...";
    }
}
