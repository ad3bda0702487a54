package dev.kruisevertx.sim.api;

/**
 * Go's {@code time.Duration.String()} and {@code time.ParseDuration}: how a metav1.Duration appears in JSON
 * ("1h2m3.5s", "150ms", "0s").
 */
final class GoDuration {
    private GoDuration() {
    }

    static String format(long nanos) {
        if (nanos == 0) {
            return "0s";
        }
        boolean negative = nanos < 0;
        // Long.MIN_VALUE has no positive counterpart; its unsigned magnitude is still right.
        long u = negative ? -nanos : nanos;
        StringBuilder sb = new StringBuilder();
        if (Long.compareUnsigned(u, 1_000_000_000L) < 0) {
            if (u < 1_000L) {
                sb.append(u).append("ns");
            } else if (u < 1_000_000L) {
                sb.append(fraction(u, 3)).append("µs");
            } else {
                sb.append(fraction(u, 6)).append("ms");
            }
        } else {
            long seconds = Long.divideUnsigned(u, 1_000_000_000L);
            long frac = Long.remainderUnsigned(u, 1_000_000_000L);
            long hours = seconds / 3600;
            long minutes = seconds / 60 % 60;
            long secs = seconds % 60;
            if (hours > 0) {
                sb.append(hours).append('h');
            }
            if (hours > 0 || minutes > 0) {
                sb.append(minutes).append('m');
            }
            sb.append(secs);
            if (frac > 0) {
                sb.append('.').append(trimZeros(String.format("%09d", frac)));
            }
            sb.append('s');
        }
        return negative ? "-" + sb : sb.toString();
    }

    /** {@code u} in units of 10^digits, with the fraction's trailing zeros removed. */
    private static String fraction(long u, int digits) {
        long unit = (long) Math.pow(10, digits);
        long whole = u / unit;
        long frac = u % unit;
        if (frac == 0) {
            return Long.toString(whole);
        }
        return whole + "." + trimZeros(String.format("%0" + digits + "d", frac));
    }

    private static String trimZeros(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '0') {
            end--;
        }
        return s.substring(0, end);
    }

    private static final java.util.Map<String, Long> UNITS = java.util.Map.of("ns", 1L, "us", 1_000L, "\u00b5s", 1_000L,
            "\u03bcs", 1_000L, "ms", 1_000_000L, "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);
    private static final java.util.regex.Pattern PART = java.util.regex.Pattern.compile("(\\d*)(?:\\.(\\d*))?([^\\d.]+)");

    /** Nanoseconds, as Go's time.ParseDuration reads them; IllegalArgumentException for anything Go refuses. */
    static long parse(String text) {
        String s = text;
        boolean negative = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return 0;
        }
        if (s.isEmpty()) {
            throw new IllegalArgumentException("invalid duration \"" + text + "\"");
        }
        java.math.BigDecimal total = java.math.BigDecimal.ZERO;
        java.util.regex.Matcher m = PART.matcher(s);
        int at = 0;
        while (at < s.length()) {
            if (!m.find(at) || m.start() != at || (m.group(1).isEmpty() && (m.group(2) == null || m.group(2).isEmpty()))) {
                throw new IllegalArgumentException("invalid duration \"" + text + "\"");
            }
            Long unit = UNITS.get(m.group(3));
            if (unit == null) {
                throw new IllegalArgumentException("unknown unit \"" + m.group(3) + "\" in duration \"" + text + "\"");
            }
            String number = (m.group(1).isEmpty() ? "0" : m.group(1))
                    + (m.group(2) == null || m.group(2).isEmpty() ? "" : "." + m.group(2));
            total = total.add(new java.math.BigDecimal(number).multiply(java.math.BigDecimal.valueOf(unit)));
            at = m.end();
        }
        // Go truncates a fraction finer than a nanosecond.
        java.math.BigInteger nanos = total.toBigInteger();
        if (negative) {
            nanos = nanos.negate();
        }
        if (nanos.bitLength() > 63) {
            throw new IllegalArgumentException("invalid duration \"" + text + "\"");
        }
        return nanos.longValueExact();
    }
}
