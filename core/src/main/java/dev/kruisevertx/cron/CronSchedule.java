package dev.kruisevertx.cron;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import dev.kruisevertx.cli.GoDuration;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A cron schedule as Kubernetes CronJob and OpenKruise's AdvancedCronJob read one (robfig/cron's standard parser):
 * five fields (minute hour day-of-month month day-of-week, names and {@code ?} allowed, day-of-month and day-of-week
 * or-ed when both are restricted), the descriptors {@code @yearly @annually @monthly @weekly @daily @midnight @hourly}
 * and {@code @every <go duration>}, and an optional {@code TZ=<zone>} or {@code CRON_TZ=<zone>} prefix.
 *
 * <p>The five fields are parsed and stepped by cron-utils (its Unix definition); this class adds what robfig/cron has
 * and cron-utils' Unix definition lacks: the prefixes, the descriptors and {@code @every}. Times are computed in the
 * schedule's zone, so a wall-clock time that a daylight-saving change skips does not run that day, and one the change
 * repeats runs once (robfig/cron runs it twice).
 */
public final class CronSchedule {
    private static final CronParser UNIX = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    // robfig/cron's descriptors, as the five fields they stand for.
    private static final Map<String, String> DESCRIPTORS = Map.of(
            "@yearly", "0 0 1 1 *", "@annually", "0 0 1 1 *", "@monthly", "0 0 1 * *", "@weekly", "0 0 * * 0",
            "@daily", "0 0 * * *", "@midnight", "0 0 * * *", "@hourly", "0 * * * *");

    private final ZoneId zone;
    private final ExecutionTime fields;
    private final Duration every;

    private CronSchedule(ZoneId zone, ExecutionTime fields, Duration every) {
        this.zone = zone;
        this.fields = fields;
        this.every = every;
    }

    /**
     * The schedule of an AdvancedCronJob: its {@code schedule}, in {@code timeZone} unless the schedule names a zone
     * itself ({@code TZ=}, as OpenKruise: any schedule containing "TZ" is taken as is), else in {@code defaultZone}.
     *
     * @throws IllegalArgumentException saying what is wrong, in robfig/cron's words
     */
    public static CronSchedule forCronJob(String schedule, String timeZone, ZoneId defaultZone) {
        String spec = schedule == null ? "" : schedule;
        if (!spec.contains("TZ") && timeZone != null && !timeZone.isEmpty()) {
            spec = "TZ=" + timeZone + " " + spec;
        }
        return parse(spec, defaultZone);
    }

    /** @throws IllegalArgumentException saying what is wrong, in robfig/cron's words */
    public static CronSchedule parse(String spec, ZoneId defaultZone) {
        if (spec == null || spec.isEmpty()) {
            throw new IllegalArgumentException("empty spec string");
        }
        String rest = spec;
        ZoneId zone = defaultZone;
        if (rest.startsWith("TZ=") || rest.startsWith("CRON_TZ=")) {
            int space = rest.indexOf(' ');
            if (space < 0) {
                throw new IllegalArgumentException("provided bad location " + rest.substring(rest.indexOf('=') + 1)
                        + ": a schedule must follow the time zone");
            }
            zone = zone(rest.substring(rest.indexOf('=') + 1, space));
            rest = rest.substring(space).strip();
        }
        if (rest.startsWith("@every ")) {
            Duration d;
            try {
                d = GoDuration.parse(rest.substring("@every ".length()).strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("failed to parse duration " + rest + ": " + e.getMessage());
            }
            if (d.isNegative()) {
                throw new IllegalArgumentException("failed to parse duration " + rest + ": negative duration");
            }
            // robfig/cron: at least a second, whole seconds.
            Duration every = d.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : Duration.ofSeconds(d.getSeconds());
            return new CronSchedule(zone, null, every);
        }
        if (rest.startsWith("@")) {
            String fields = DESCRIPTORS.get(rest.toLowerCase(Locale.ROOT));
            if (fields == null) {
                throw new IllegalArgumentException("unrecognized descriptor: " + rest);
            }
            rest = fields;
        }
        String[] parts = rest.strip().split("\\s+");
        if (parts.length != 5) {
            throw new IllegalArgumentException("expected exactly 5 fields, found " + parts.length + ": " + rest);
        }
        // robfig/cron reads "?" as "*"; cron-utils' Unix definition does not know it.
        String normalized = String.join(" ", parts).replace('?', '*');
        Cron cron;
        try {
            cron = UNIX.parse(normalized);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() == null ? "invalid cron expression: " + rest : e.getMessage());
        }
        return new CronSchedule(zone, ExecutionTime.forCron(cron), null);
    }

    private static ZoneId zone(String name) {
        if (name.isEmpty() || name.equalsIgnoreCase("Local")) {
            throw new IllegalArgumentException("provided bad location " + name + ": an explicit IANA time zone is required");
        }
        try {
            return ZoneId.of(name);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("provided bad location " + name + ": unknown time zone " + name);
        }
    }

    /** Checks an IANA zone name as OpenKruise's webhook does; empty when valid, else what is wrong. */
    public static Optional<String> zoneProblem(String name) {
        if (name == null) {
            return Optional.empty();
        }
        if (name.isEmpty()) {
            return Optional.of("timeZone must be nil or non-empty string");
        }
        if (name.equalsIgnoreCase("Local")) {
            return Optional.of("timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones");
        }
        try {
            ZoneId.of(name);
            return Optional.empty();
        } catch (DateTimeException e) {
            return Optional.of("unknown time zone " + name);
        }
    }

    /** The zone the schedule's fields are read in. */
    public ZoneId zone() {
        return zone;
    }

    /** The first activation strictly after {@code after}; empty when there is none (e.g. 31 February). */
    public Optional<Instant> next(Instant after) {
        if (every != null) {
            // robfig/cron's constant delay: the delay from {@code after} rounded down to the second.
            return Optional.of(after.plus(every).minusNanos(after.getNano()));
        }
        return fields.nextExecution(ZonedDateTime.ofInstant(after, zone)).map(ZonedDateTime::toInstant);
    }
}
