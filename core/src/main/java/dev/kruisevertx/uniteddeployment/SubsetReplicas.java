package dev.kruisevertx.uniteddeployment;

import io.fabric8.kubernetes.api.model.IntOrString;

/**
 * Reads a subset's {@code replicas}, {@code minReplicas} or {@code maxReplicas}: a non-negative integer, or a
 * percentage {@code "<n>%"} (0 to 100) of the UnitedDeployment's replicas rounded half up. The error messages are
 * OpenKruise's, so the webhook's denials read the same.
 */
public final class SubsetReplicas {
    /** The UnitedDeployment's replicas when {@code spec.replicas} is unset. */
    public static final int UNSET = -1;

    private SubsetReplicas() {
    }

    /**
     * The absolute count of {@code value} for a UnitedDeployment of {@code udReplicas} ({@link #UNSET} when unset).
     *
     * @throws IllegalArgumentException with OpenKruise's message when the value cannot be read
     */
    public static int parse(int udReplicas, IntOrString value) {
        if (value.getIntVal() != null || value.getStrVal() == null) {
            int v = value.getIntVal() == null ? 0 : value.getIntVal();
            if (v < 0) {
                throw new IllegalArgumentException("subset replicas (" + v + ") should not be less than 0");
            }
            return v;
        }
        String s = value.getStrVal();
        if (udReplicas < 0) {
            throw new IllegalArgumentException("subsetReplicas (" + s
                    + ") should not be string when unitedDeployment replicas is empty");
        }
        if (!s.endsWith("%")) {
            throw new IllegalArgumentException("subset replicas (" + s
                    + ") only support integer value or percentage value with a suffix '%'");
        }
        String number = s.substring(0, s.length() - 1);
        long percent;
        try {
            percent = parseInt32(number);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("subset replicas (" + s + ") should be correct percentage integer: "
                    + e.getMessage(), e);
        }
        if (percent > 100 || percent < 0) {
            throw new IllegalArgumentException("subset replicas (" + s + ") should be in range [0, 100]");
        }
        return (int) Math.floor((double) udReplicas * (double) percent / 100 + 0.5);
    }

    /** The count, or {@code fallback} when the value is unset or unreadable (the allocator ignores bad values). */
    static int parseOr(int udReplicas, IntOrString value, int fallback) {
        if (value == null) {
            return fallback;
        }
        try {
            return parse(udReplicas, value);
        } catch (IllegalArgumentException e) {
            // OpenKruise's allocator takes the zero value an unreadable count parses to.
            return 0;
        }
    }

    // A base-10 32-bit integer with an optional sign, as Go's strconv.ParseInt(s, 10, 32) reads it; the messages are
    // strconv's, since OpenKruise shows them.
    private static long parseInt32(String s) {
        String digits = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("strconv.ParseInt: parsing \"" + s + "\": invalid syntax");
        }
        long v;
        try {
            v = Long.parseLong(s.startsWith("+") ? digits : s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("strconv.ParseInt: parsing \"" + s + "\": value out of range", e);
        }
        if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
            throw new IllegalArgumentException("strconv.ParseInt: parsing \"" + s + "\": value out of range");
        }
        return v;
    }
}
