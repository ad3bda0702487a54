package dev.kruisevertx.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations the way Go's {@code time.ParseDuration} writes them ("5ms", "1000s", "2m", "1h30m", "1.5s"),
 * since every OpenKruise flag and chart value uses that form.
 */
public final class GoDuration {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h)");

    private GoDuration() {
    }

    public static Duration parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty duration; expected e.g. \"5ms\", \"30s\", \"2m\", \"1h30m\"");
        }
        String s = text.trim();
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        boolean negative = s.startsWith("-");
        if (negative || s.startsWith("+")) {
            s = s.substring(1);
        }
        Matcher m = PART.matcher(s);
        int at = 0;
        double nanos = 0;
        while (at < s.length()) {
            if (!m.find(at) || m.start() != at) {
                throw new IllegalArgumentException("invalid duration \"" + text
                        + "\"; expected a number with a unit (ns, us, ms, s, m, h), e.g. \"5ms\", \"30s\", \"1h30m\"");
            }
            nanos += Double.parseDouble(m.group(1)) * unitNanos(m.group(2));
            at = m.end();
        }
        long total = Math.round(nanos);
        return Duration.ofNanos(negative ? -total : total);
    }

    private static double unitNanos(String unit) {
        return switch (unit) {
            case "ns" -> 1;
            case "us", "µs" -> 1_000;
            case "ms" -> 1_000_000;
            case "s" -> 1_000_000_000d;
            case "m" -> 60 * 1_000_000_000d;
            default -> 3600 * 1_000_000_000d;
        };
    }

    /** Formats like Go's Duration.String for whole units ("5ms", "1m0s" style is not needed for flags' help). */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        if (d.toNanos() % 1_000_000_000L != 0) {
            return d.toMillis() + "ms";
        }
        long seconds = d.getSeconds();
        if (seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        if (seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }
}
