package dev.kruisevertx.webhook.certs;

import java.time.Instant;
import java.time.Period;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAmount;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** CERTS_RENEW_BEFORE: how long before expiry a certificate is replaced ({@code 30d}, {@code 6m}, {@code 1y}). */
public final class RenewBefore {
    /** OpenKruise renews certificates that expire within six months. */
    public static final Period DEFAULT = Period.ofMonths(6);

    private static final Pattern FORM = Pattern.compile("(\\d+)([dmyDMY])");

    private RenewBefore() {
    }

    /**
     * Parses {@code N} followed by {@code d} (days), {@code m} (months) or {@code y} (years).
     *
     * @throws IllegalArgumentException naming the variable and the accepted forms
     */
    public static Period parse(String text) {
        String t = text == null ? "" : text.trim();
        Matcher m = FORM.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException("CERTS_RENEW_BEFORE: invalid value '" + text
                    + "': expected a positive number followed by d, m or y (for example 30d, 6m, 1y)");
        }
        int n;
        try {
            n = Integer.parseInt(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("CERTS_RENEW_BEFORE: number too large in '" + text + "'");
        }
        if (n <= 0) {
            throw new IllegalArgumentException("CERTS_RENEW_BEFORE: must be positive, got '" + text + "'");
        }
        return switch (Character.toLowerCase(m.group(2).charAt(0))) {
            case 'd' -> Period.ofDays(n);
            case 'm' -> Period.ofMonths(n);
            default -> Period.ofYears(n);
        };
    }

    /** The instant a certificate must outlive to be kept: {@code now + amount} (calendar arithmetic, UTC). */
    public static Instant threshold(Instant now, TemporalAmount amount) {
        return now.atZone(ZoneOffset.UTC).plus(amount).toInstant();
    }
}
