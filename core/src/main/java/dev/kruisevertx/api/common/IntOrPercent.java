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
     * The absolute value of {@code value} against {@code total}.
     *
     * @param value   the field; null counts as 0
     * @param roundUp round a percentage up (ceil) instead of down (floor)
     * @throws IllegalArgumentException when the string is not an integer percentage such as {@code "20%"}
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
        int percent = parsePercent(s);
        long scaled = (long) percent * total;
        long result = roundUp ? -Math.floorDiv(-scaled, 100L) : Math.floorDiv(scaled, 100L);
        return (int) result;
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
                parsePercent(value.getStrVal());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(fieldPath + ": " + e.getMessage(), e);
            }
        }
    }

    private static int parsePercent(String s) {
        String message = "invalid value \"" + s + "\": must be an integer or a percentage such as \"20%\"";
        if (!s.endsWith("%")) {
            throw new IllegalArgumentException(message);
        }
        try {
            return Integer.parseInt(s.substring(0, s.length() - 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(message, e);
        }
    }
}
