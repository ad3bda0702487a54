package dev.kruisevertx.predownload;

import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * The pre-download annotations of a workload read the way OpenKruise's Go code reads them, so a hostile value
 * (negative, huge, not a number) ends up where it ends up there: never an exception, at worst the default.
 */
public final class PreDownloadValues {
    /** OpenKruise's pull timeout for pre-download jobs when the annotation is absent or unreadable. */
    public static final int DEFAULT_TIMEOUT_SECONDS = 300;
    public static final int DEFAULT_PARALLELISM = 1;

    private static final Pattern DECIMAL = Pattern.compile("[+-]?[0-9]+");
    private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private PreDownloadValues() {
    }

    /**
     * {@code apps.kruise.io/image-predownload-timeout-seconds}: a decimal in the int32 range (strconv.ParseInt with
     * bitSize 32: signs allowed, so a negative value is taken as is); anything else gives 300.
     */
    public static int timeoutSeconds(String value) {
        Long v = int64(value);
        if (v == null || v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            return DEFAULT_TIMEOUT_SECONDS;
        }
        return (int) (long) v;
    }

    /**
     * {@code apps.kruise.io/image-predownload-parallelism}: strconv.Atoi (64-bit) then intstr.FromInt, which keeps
     * the low 32 bits of a value beyond the int32 range; unreadable gives 1.
     */
    public static int parallelism(String value) {
        Long v = int64(value);
        return v == null ? DEFAULT_PARALLELISM : (int) (long) v;
    }

    /**
     * {@code apps.kruise.io/image-predownload-min-updated-ready-pods} against {@code total} pods: intstr.Parse
     * (an integer, else a string) scaled with GetScaledValueFromIntOrPercent rounding up; a string that is not
     * {@code <int>%} is an error there, which OpenKruise logs and counts as 0.
     */
    public static int minUpdatedReadyPods(String value, int total) {
        if (value == null) {
            return 0;
        }
        Long v = int64(value);
        if (v != null) {
            return (int) (long) v;
        }
        if (!value.endsWith("%")) {
            return 0;
        }
        Long percent = int64(value.substring(0, value.length() - 1));
        if (percent == null) {
            return 0;
        }
        double scaled = Math.ceil((double) percent * total / 100.0);
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, scaled));
    }

    /** A Go base-10 int64 (optional sign, ASCII digits), or null when Go's parser would fail. */
    static Long int64(String value) {
        if (value == null || value.length() > 40 || !DECIMAL.matcher(value).matches()) {
            return null;
        }
        BigInteger b = new BigInteger(value.startsWith("+") ? value.substring(1) : value);
        if (b.compareTo(INT64_MIN) < 0 || b.compareTo(INT64_MAX) > 0) {
            return null;
        }
        return b.longValue();
    }
}
