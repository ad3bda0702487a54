package dev.kruisevertx.cron;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Next activation times as robfig/cron (Kubernetes CronJob, OpenKruise AdvancedCronJob) computes them. */
class CronScheduleTest {
    static final ZoneId UTC = ZoneOffset.UTC;

    @ParameterizedTest(name = "[{index}] {0} tz={1} after {2}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            // plain fields, UTC
            "*/5 * * * *          | -                | 2026-01-01T00:00:00Z | 2026-01-01T00:05:00Z",
            "0 * * * *            | -                | 2026-01-01T00:59:59Z | 2026-01-01T01:00:00Z",
            "30 14 * * *          | -                | 2026-01-01T14:30:00Z | 2026-01-02T14:30:00Z",
            "0 0 1,15 * MON       | -                | 2026-01-01T00:00:00Z | 2026-01-05T00:00:00Z",
            "0 0 ? * mon          | -                | 2026-01-01T00:00:00Z | 2026-01-05T00:00:00Z",
            "5-10/2 * * * *       | -                | 2026-01-01T00:06:00Z | 2026-01-01T00:07:00Z",
            "0 12 * * 1-5         | -                | 2026-01-02T12:00:00Z | 2026-01-05T12:00:00Z",
            "0 0 29 2 *           | -                | 2026-01-01T00:00:00Z | 2028-02-29T00:00:00Z",
            // descriptors
            "@hourly              | -                | 2026-01-01T00:10:00Z | 2026-01-01T01:00:00Z",
            "@daily               | -                | 2026-01-01T00:00:00Z | 2026-01-02T00:00:00Z",
            "@midnight            | -                | 2026-01-01T10:00:00Z | 2026-01-02T00:00:00Z",
            "@weekly              | -                | 2026-01-01T00:00:00Z | 2026-01-04T00:00:00Z",
            "@monthly             | -                | 2026-01-15T00:00:00Z | 2026-02-01T00:00:00Z",
            "@yearly              | -                | 2026-01-01T00:00:00Z | 2027-01-01T00:00:00Z",
            "@annually            | -                | 2026-06-01T00:00:00Z | 2027-01-01T00:00:00Z",
            // @every: the delay from the given time, whole seconds
            "@every 5s            | -                | 2026-01-01T00:00:00.700Z | 2026-01-01T00:00:05Z",
            "@every 1m30s         | -                | 2026-01-01T00:00:10Z | 2026-01-01T00:01:40Z",
            "@every 200ms         | -                | 2026-01-01T00:00:10Z | 2026-01-01T00:00:11Z",
            // zones: the timeZone field and the TZ= / CRON_TZ= prefixes
            "0 9 * * *            | Asia/Shanghai    | 2026-01-01T00:00:00Z | 2026-01-01T01:00:00Z",
            "TZ=Asia/Tokyo 0 9 * * * | -             | 2026-01-01T00:00:00Z | 2026-01-02T00:00:00Z",
            "CRON_TZ=Europe/Berlin 0 9 * * * | -     | 2026-07-01T00:00:00Z | 2026-07-01T07:00:00Z",
            "0 9 * * *            | Europe/Berlin    | 2026-01-01T00:00:00Z | 2026-01-01T08:00:00Z",
            "0 0 * * *            | Asia/Kolkata     | 2026-01-01T00:00:00Z | 2026-01-01T18:30:00Z",
            // DST, America/New_York: 2026-03-08 02:00 EST -> 03:00 EDT; 2026-11-01 02:00 EDT -> 01:00 EST
            "30 2 * * *           | America/New_York | 2026-03-07T07:30:00Z | 2026-03-09T06:30:00Z",
            "0 3 * * *            | America/New_York | 2026-03-07T08:00:00Z | 2026-03-08T07:00:00Z",
            "0 * * * *            | America/New_York | 2026-03-08T06:00:00Z | 2026-03-08T07:00:00Z",
            "0 * * * *            | America/New_York | 2026-11-01T05:00:00Z | 2026-11-01T06:00:00Z",
            "0 * * * *            | America/New_York | 2026-11-01T06:00:00Z | 2026-11-01T07:00:00Z",
            "30 1 * * *           | America/New_York | 2026-11-01T05:30:00Z | 2026-11-02T06:30:00Z",
            // DST, Europe/Berlin: 2026-03-29 02:00 CET -> 03:00 CEST
            "30 2 * * *           | Europe/Berlin    | 2026-03-28T01:30:00Z | 2026-03-30T00:30:00Z",
            // a zone in the schedule wins over the timeZone field (OpenKruise: a schedule containing TZ is kept)
            "TZ=UTC 0 9 * * *     | Asia/Shanghai    | 2026-01-01T00:00:00Z | 2026-01-01T09:00:00Z",
    })
    void nextActivation(String schedule, String timeZone, String after, String expected) {
        CronSchedule s = CronSchedule.forCronJob(schedule, timeZone, UTC);
        assertEquals(Instant.parse(expected), s.next(Instant.parse(after)).orElseThrow());
    }

    @Test
    void anImpossibleDateHasNoNextTime() {
        assertTrue(CronSchedule.parse("0 0 31 2 *", UTC).next(Instant.parse("2026-01-01T00:00:00Z")).isEmpty());
    }

    @Test
    void aDayWithASpringForwardGapSkipsTheMissingTimeAndKeepsTheOthers() {
        CronSchedule s = CronSchedule.forCronJob("*/30 * * * *", "America/New_York", UTC);
        List<Instant> runs = new ArrayList<>();
        Instant t = Instant.parse("2026-03-08T06:00:00Z"); // 01:00 EST
        for (int i = 0; i < 4; i++) {
            t = s.next(t).orElseThrow();
            runs.add(t);
        }
        // 01:30 EST, then 03:00 EDT (02:00 and 02:30 do not exist), 03:30 EDT, 04:00 EDT: one real hour apart each.
        assertEquals(List.of(Instant.parse("2026-03-08T06:30:00Z"), Instant.parse("2026-03-08T07:00:00Z"),
                Instant.parse("2026-03-08T07:30:00Z"), Instant.parse("2026-03-08T08:00:00Z")), runs);
    }

    @ParameterizedTest(name = "[{index}] \"{0}\" -> {1}")
    @CsvSource(delimiter = '|', value = {
            "''                       | empty spec string",
            "invalid-cron             | expected exactly 5 fields, found 1: invalid-cron",
            "* * * *                  | expected exactly 5 fields, found 4",
            "60 * * * *               | 60",
            "* 24 * * *               | 24",
            "@fortnightly             | unrecognized descriptor: @fortnightly",
            "@every soon              | failed to parse duration @every soon",
            "TZ=Mars/Olympus 0 * * * * | provided bad location Mars/Olympus",
            "TZ=Local 0 * * * *       | provided bad location Local",
            "TZ=UTC                   | provided bad location UTC",
            "0 0 L * *                | L",
    })
    void badSchedulesSayWhatIsWrong(String schedule, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CronSchedule.parse(schedule, UTC));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void zoneProblemsAsOpenKruisesWebhookStatesThem() {
        assertTrue(CronSchedule.zoneProblem(null).isEmpty());
        assertTrue(CronSchedule.zoneProblem("America/New_York").isEmpty());
        assertEquals("timeZone must be nil or non-empty string", CronSchedule.zoneProblem("").orElseThrow());
        assertTrue(CronSchedule.zoneProblem("local").orElseThrow().contains("explicit time zone"));
        assertEquals("unknown time zone broken", CronSchedule.zoneProblem("broken").orElseThrow());
    }
}
