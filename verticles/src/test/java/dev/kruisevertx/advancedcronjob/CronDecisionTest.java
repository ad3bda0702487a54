package dev.kruisevertx.advancedcronjob;

import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJobSpec;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJobStatus;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobTemplateSpec;
import dev.kruisevertx.api.apps.v1beta1.CronJobTemplate;
import dev.kruisevertx.api.apps.v1beta1.TemplateKind;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link CronDecision} as a table: runs due, missed starts, deadlines, concurrency, history, status. */
class CronDecisionTest {
    static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");

    static AdvancedCronJob acj(String schedule, Consumer<AdvancedCronJobSpec> edit) {
        AdvancedCronJob a = new AdvancedCronJob();
        a.setMetadata(new ObjectMetaBuilder().withName("nightly").withNamespace("ns").withUid("u-1")
                .withCreationTimestamp(CREATED.toString()).build());
        AdvancedCronJobSpec spec = new AdvancedCronJobSpec();
        spec.setSchedule(schedule);
        CronJobTemplate t = new CronJobTemplate();
        t.setJobTemplate(new JobTemplateSpec());
        spec.setTemplate(t);
        edit.accept(spec);
        a.setSpec(spec);
        return a;
    }

    static CronChild child(String name, CronChild.Outcome outcome, String scheduledAt, String started) {
        return new CronChild(name, name + "-uid", "1", outcome, scheduledAt == null ? null : Instant.parse(scheduledAt),
                started == null ? null : Instant.parse(started));
    }

    static CronChild active(String scheduledAt) {
        return child("nightly-" + Instant.parse(scheduledAt).getEpochSecond(), CronChild.Outcome.ACTIVE, scheduledAt,
                scheduledAt);
    }

    record Case(String name, AdvancedCronJob acj, List<CronChild> children, String now, String create,
                Duration requeue, String reasonStart, String problem, int replace, List<String> pruned) {
    }

    static Case c(String name, AdvancedCronJob acj, List<CronChild> children, String now, String create,
                  Duration requeue, String reasonStart) {
        return new Case(name, acj, children, now, create, requeue, reasonStart, null, 0, List.of());
    }

    static List<Case> cases() {
        List<Case> t = new ArrayList<>();
        // No run due yet: requeue at the next time.
        t.add(c("before the first run", acj("*/5 * * * *", s -> { }), List.of(), "2026-01-01T00:03:00Z", null,
                Duration.ofMinutes(2), "no run due"));
        t.add(c("exactly at the first run", acj("*/5 * * * *", s -> { }), List.of(), "2026-01-01T00:05:00Z",
                "2026-01-01T00:05:00Z", Duration.ofMinutes(5), "start the run"));
        t.add(c("one second after the first run", acj("*/5 * * * *", s -> { }), List.of(), "2026-01-01T00:05:01Z",
                "2026-01-01T00:05:00Z", Duration.ofSeconds(299), "start the run"));
        t.add(c("several missed: only the latest starts", acj("*/5 * * * *", s -> { }), List.of(),
                "2026-01-01T00:17:00Z", "2026-01-01T00:15:00Z", Duration.ofMinutes(3), "start the run"));
        t.add(c("last run already created", acj("*/5 * * * *", s -> { }),
                List.of(active("2026-01-01T00:15:00Z")), "2026-01-01T00:17:00Z", null, Duration.ofMinutes(3),
                "no run due"));
        t.add(c("next run after a finished one", acj("*/5 * * * *", s -> { }),
                List.of(child("a", CronChild.Outcome.SUCCEEDED, "2026-01-01T00:15:00Z", "2026-01-01T00:15:00Z")),
                "2026-01-01T00:20:00Z", "2026-01-01T00:20:00Z", Duration.ofMinutes(5), "start the run"));
        t.add(c("a child without scheduled-at does not count as the last run", acj("*/5 * * * *", s -> { }),
                List.of(child("manual", CronChild.Outcome.SUCCEEDED, null, null)), "2026-01-01T00:06:00Z",
                "2026-01-01T00:05:00Z", Duration.ofMinutes(4), "start the run"));
        t.add(c("the stored lastScheduleTime holds when history is pruned to nothing", withStatus(
                acj("*/5 * * * *", s -> s.setSuccessfulJobsHistoryLimit(0)), "2026-01-01T00:15:00Z"), List.of(),
                "2026-01-01T00:17:00Z", null, Duration.ofMinutes(3), "no run due"));
        // Missed-start counting: 100 is caught up (the latest), 101 is an error.
        t.add(c("exactly 100 missed starts", acj("* * * * *", s -> { }), List.of(), "2026-01-01T01:40:30Z",
                "2026-01-01T01:40:00Z", Duration.ofSeconds(30), "start the run"));
        t.add(new Case("101 missed starts", acj("* * * * *", s -> { }), List.of(), "2026-01-01T01:41:30Z", null, null,
                "too many missed start times", CronDecision.TOO_MANY_MISSED, 0, List.of()));
        t.add(new Case("@every 1s a day later", acj("@every 1s", s -> { }), List.of(), "2026-01-02T00:00:00Z", null,
                null, "too many missed start times", CronDecision.TOO_MANY_MISSED, 0, List.of()));
        t.add(c("startingDeadlineSeconds bounds the missed starts counted", acj("* * * * *",
                        s -> s.setStartingDeadlineSeconds(200L)), List.of(), "2026-01-02T00:00:30Z",
                "2026-01-02T00:00:00Z", Duration.ofSeconds(30), "start the run"));
        t.add(c("a run past its starting deadline is skipped", acj("0 * * * *",
                        s -> s.setStartingDeadlineSeconds(60L)), List.of(active("2026-01-01T00:00:00Z")),
                "2026-01-01T01:02:00Z", null, Duration.ofMinutes(58), "no run due"));
        t.add(c("a run within its starting deadline starts late", acj("0 * * * *",
                        s -> s.setStartingDeadlineSeconds(300L)), List.of(), "2026-01-01T01:04:00Z",
                "2026-01-01T01:00:00Z", Duration.ofMinutes(56), "start the run"));
        t.add(c("deadline 0 skips anything not started in its second", acj("0 * * * *",
                        s -> s.setStartingDeadlineSeconds(0L)), List.of(), "2026-01-01T01:00:01Z",
                null, Duration.ofSeconds(3599), "no run due"));
        // Concurrency.
        t.add(c("Allow starts beside an active run", acj("*/5 * * * *", s -> s.setConcurrencyPolicy("Allow")),
                List.of(active("2026-01-01T00:05:00Z")), "2026-01-01T00:10:00Z", "2026-01-01T00:10:00Z",
                Duration.ofMinutes(5), "start the run"));
        t.add(c("Forbid waits while one is active", acj("*/5 * * * *", s -> s.setConcurrencyPolicy("Forbid")),
                List.of(active("2026-01-01T00:05:00Z")), "2026-01-01T00:10:00Z", null, Duration.ofMinutes(5),
                "concurrencyPolicy Forbid: 1 run(s) still active"));
        t.add(c("Forbid starts when nothing is active", acj("*/5 * * * *", s -> s.setConcurrencyPolicy("Forbid")),
                List.of(child("a", CronChild.Outcome.FAILED, "2026-01-01T00:05:00Z", "2026-01-01T00:05:00Z")),
                "2026-01-01T00:10:00Z", "2026-01-01T00:10:00Z", Duration.ofMinutes(5), "start the run"));
        t.add(c("Forbid: the waiting run starts late once the active one ends", acj("*/5 * * * *",
                        s -> s.setConcurrencyPolicy("Forbid")),
                List.of(child("a", CronChild.Outcome.SUCCEEDED, "2026-01-01T00:05:00Z", "2026-01-01T00:05:00Z")),
                "2026-01-01T00:12:00Z", "2026-01-01T00:10:00Z", Duration.ofMinutes(3), "start the run"));
        t.add(new Case("Replace deletes the active ones and starts", acj("*/5 * * * *",
                s -> s.setConcurrencyPolicy("Replace")), List.of(active("2026-01-01T00:00:00Z"),
                active("2026-01-01T00:05:00Z")), "2026-01-01T00:10:00Z", "2026-01-01T00:10:00Z",
                Duration.ofMinutes(5), "start the run", null, 2, List.of()));
        t.add(c("Replace with no run due deletes nothing", acj("*/5 * * * *", s -> s.setConcurrencyPolicy("Replace")),
                List.of(active("2026-01-01T00:05:00Z")), "2026-01-01T00:07:00Z", null, Duration.ofMinutes(3),
                "no run due"));
        t.add(c("an unknown policy reads as Allow", acj("*/5 * * * *", s -> s.setConcurrencyPolicy("forbid")),
                List.of(active("2026-01-01T00:05:00Z")), "2026-01-01T00:10:00Z", "2026-01-01T00:10:00Z",
                Duration.ofMinutes(5), "start the run"));
        // Paused and unparsable.
        t.add(c("paused: nothing starts, no requeue", acj("*/5 * * * *", s -> s.setPaused(true)), List.of(),
                "2026-01-01T00:10:00Z", null, null, "paused"));
        t.add(new Case("unparsable schedule", acj("every day", s -> { }), List.of(), "2026-01-01T00:10:00Z", null, null,
                "unparsable schedule", CronDecision.UNPARSEABLE, 0, List.of()));
        t.add(new Case("unknown timeZone", acj("0 * * * *", s -> s.setTimeZone("Mars/Olympus")), List.of(),
                "2026-01-01T00:10:00Z", null, null, "unparsable schedule", CronDecision.UNPARSEABLE, 0, List.of()));
        t.add(c("no next time (31 February)", acj("0 0 31 2 *", s -> { }), List.of(), "2026-01-01T00:10:00Z", null,
                null, "no run due; the schedule has no next time"));
        // Time zones.
        t.add(c("timeZone: 09:00 Shanghai is 01:00 UTC", acj("0 9 * * *", s -> s.setTimeZone("Asia/Shanghai")),
                List.of(), "2026-01-01T01:00:05Z", "2026-01-01T01:00:00Z", Duration.ofHours(24).minusSeconds(5),
                "start the run"));
        t.add(c("TZ= prefix: 09:00 Tokyo, strictly after the creation", acj("TZ=Asia/Tokyo 0 9 * * *", s -> { }),
                List.of(), "2026-01-02T00:00:00Z", "2026-01-02T00:00:00Z", Duration.ofHours(24), "start the run"));
        t.add(c("DST gap: 02:30 New York does not run on 8 March", acj("30 2 * * *",
                        s -> s.setTimeZone("America/New_York")),
                List.of(child("a", CronChild.Outcome.SUCCEEDED, "2026-03-07T07:30:00Z", "2026-03-07T07:30:00Z")),
                "2026-03-08T12:00:00Z", null, Duration.ofHours(18).plusMinutes(30), "no run due"));
        // History limits.
        t.add(new Case("successful history keeps the newest", acj("*/5 * * * *",
                s -> s.setSuccessfulJobsHistoryLimit(1)), List.of(
                child("s1", CronChild.Outcome.SUCCEEDED, "2026-01-01T00:05:00Z", "2026-01-01T00:05:01Z"),
                child("s3", CronChild.Outcome.SUCCEEDED, "2026-01-01T00:15:00Z", "2026-01-01T00:15:01Z"),
                child("s2", CronChild.Outcome.SUCCEEDED, "2026-01-01T00:10:00Z", "2026-01-01T00:10:01Z")),
                "2026-01-01T00:16:00Z", null, Duration.ofMinutes(4), "no run due", null, 0, List.of("s1", "s2")));
        t.add(new Case("failed history 0 deletes every failed one; unstarted go first", acj("*/5 * * * *",
                s -> s.setFailedJobsHistoryLimit(0)), List.of(
                child("f2", CronChild.Outcome.FAILED, "2026-01-01T00:10:00Z", "2026-01-01T00:10:01Z"),
                child("f1", CronChild.Outcome.FAILED, "2026-01-01T00:15:00Z", null)),
                "2026-01-01T00:16:00Z", null, Duration.ofMinutes(4), "no run due", null, 0, List.of("f1", "f2")));
        t.add(new Case("no limit keeps everything; paused still prunes", acj("*/5 * * * *", s -> {
            s.setPaused(true);
            s.setFailedJobsHistoryLimit(1);
        }), List.of(child("f1", CronChild.Outcome.FAILED, "2026-01-01T00:05:00Z", "2026-01-01T00:05:01Z"),
                child("f2", CronChild.Outcome.FAILED, "2026-01-01T00:10:00Z", "2026-01-01T00:10:01Z"),
                child("s1", CronChild.Outcome.SUCCEEDED, "2026-01-01T00:15:00Z", "2026-01-01T00:15:01Z")),
                "2026-01-01T00:16:00Z", null, null, "paused", null, 0, List.of("f1")));
        t.add(new Case("active children are never pruned", acj("*/5 * * * *", s -> {
            s.setSuccessfulJobsHistoryLimit(0);
            s.setFailedJobsHistoryLimit(0);
        }), List.of(active("2026-01-01T00:15:00Z")), "2026-01-01T00:16:00Z", null, Duration.ofMinutes(4),
                "no run due", null, 0, List.of()));
        return t;
    }

    static AdvancedCronJob withStatus(AdvancedCronJob a, String lastScheduleTime) {
        AdvancedCronJobStatus s = new AdvancedCronJobStatus();
        s.setLastScheduleTime(lastScheduleTime);
        a.setStatus(s);
        return a;
    }

    @Test
    void table() {
        List<Case> cases = cases();
        assertTrue(cases.size() >= 30, "at least 30 cases, has " + cases.size());
        List<String> failures = new ArrayList<>();
        for (Case k : cases) {
            CronPlan p = CronDecision.decide(k.acj(), k.children(), Instant.parse(k.now()), ZoneOffset.UTC);
            String got = "create=" + p.create() + " requeue=" + p.requeueAfter() + " replace=" + p.replace().size()
                    + " problem=" + (p.error() == null ? null : p.error().eventReason())
                    + " pruned=" + p.prune().stream().map(x -> x.child().name()).toList();
            String want = "create=" + (k.create() == null ? null : Instant.parse(k.create())) + " requeue=" + k.requeue()
                    + " replace=" + k.replace() + " problem=" + k.problem() + " pruned=" + k.pruned();
            if (!got.equals(want) || !p.reason().startsWith(k.reasonStart())) {
                failures.add(k.name() + ":\n  want " + want + " / " + k.reasonStart() + "\n  got  " + got + " / "
                        + p.reason());
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    @Test
    void statusListsActiveChildrenAndTheLatestScheduledRun() {
        AdvancedCronJob a = acj("*/5 * * * *", s -> { });
        CronPlan p = CronDecision.decide(a, List.of(active("2026-01-01T00:05:00Z"),
                child("done", CronChild.Outcome.SUCCEEDED, "2026-01-01T00:10:00Z", null)),
                Instant.parse("2026-01-01T00:11:00Z"), ZoneOffset.UTC);
        AdvancedCronJobStatus s = CronActuator.status(a, p);
        assertEquals("Job", s.getType());
        assertEquals("2026-01-01T00:10:00Z", s.getLastScheduleTime());
        assertEquals(List.of("nightly-1767225900"), s.getActive().stream().map(r -> r.getName()).toList());
        assertEquals("batch/v1", s.getActive().get(0).getApiVersion());
    }

    @Test
    void childrenAreNamedByTheirRunAndCarryItsTimeAndTheirOwner() {
        AdvancedCronJob a = acj("*/5 * * * *", s -> {
            CronJobTemplate t = new CronJobTemplate();
            BroadcastJobTemplateSpec b = new BroadcastJobTemplateSpec();
            b.setMetadata(new ObjectMetaBuilder().addToLabels("team", "a").addToAnnotations("note", "x").build());
            t.setBroadcastJobTemplate(b);
            s.setTemplate(t);
        });
        assertEquals(TemplateKind.BROADCAST_JOB, a.spec().template().kind());
        var meta = CronActuator.childMeta(a, TemplateKind.BROADCAST_JOB, Instant.parse("2026-01-01T00:05:00Z"));
        assertEquals("nightly-1767225900", meta.getName());
        assertEquals("a", meta.getLabels().get("team"));
        assertEquals("x", meta.getAnnotations().get("note"));
        assertEquals("2026-01-01T00:05:00Z", meta.getAnnotations().get("apps.kruise.io/scheduled-at"));
        assertEquals("u-1", meta.getOwnerReferences().get(0).getUid());
        assertEquals(Boolean.TRUE, meta.getOwnerReferences().get(0).getController());
    }

    @Test
    void debugSummaryNamesWhatHappensAndWhy() {
        CronPlan p = CronDecision.decide(acj("*/5 * * * *", s -> s.setConcurrencyPolicy("Replace")),
                List.of(active("2026-01-01T00:05:00Z")), Instant.parse("2026-01-01T00:10:00Z"), ZoneOffset.UTC);
        var summary = p.debugSummary();
        assertEquals(1L, summary.counts().get("replace"));
        assertEquals(1L, summary.counts().get("create"));
        assertTrue(summary.actions().stream().anyMatch(l -> l.startsWith("delete nightly-1767225900")), summary.actions().toString());
        assertNull(p.error());
    }

    static List<String> reasons(CronPlan p) {
        return p.reasons().stream().map(dev.kruisevertx.controller.reason.BlockReason::text).toList();
    }

    @Test
    void reasonsNameWhatHoldsARunBack() {
        Instant now = Instant.parse("2026-01-01T00:11:00Z");
        CronPlan forbid = CronDecision.decide(acj("*/5 * * * *", s -> s.setConcurrencyPolicy("Forbid")),
                List.of(active("2026-01-01T00:05:00Z")), now, ZoneOffset.UTC);
        assertEquals(List.of("ConcurrencyPolicy: concurrencyPolicy Forbid: the run scheduled at 2026-01-01T00:10:00Z "
                + "waits while 1 run is active (nightly-1767225900)"), reasons(forbid));
        assertTrue(forbid.reasons().get(0).code().intended());
        CronPlan paused = CronDecision.decide(acj("*/5 * * * *", s -> s.setPaused(true)), List.of(), now,
                ZoneOffset.UTC);
        assertEquals(List.of("Paused: spec.paused is true: no scheduled run starts"), reasons(paused));
        CronPlan late = CronDecision.decide(acj("*/5 * * * *", s -> s.setStartingDeadlineSeconds(30L)), List.of(), now,
                ZoneOffset.UTC);
        assertEquals(List.of("MissedStart: the run scheduled at 2026-01-01T00:05:00Z missed startingDeadlineSeconds 30"),
                reasons(late), "the first run after the creation was never started");
        assertEquals(List.of(), reasons(CronDecision.decide(acj("*/5 * * * *", s -> s.setStartingDeadlineSeconds(30L)),
                List.of(), Instant.parse("2026-01-01T00:04:00Z"), ZoneOffset.UTC)), "nothing was due yet");
        CronPlan tooMany = CronDecision.decide(acj("* * * * *", s -> { }), List.of(), CREATED.plusSeconds(3 * 3600),
                ZoneOffset.UTC);
        assertEquals(List.of("MissedStart: more than 100 missed start times: no run starts; set or decrease "
                + "spec.startingDeadlineSeconds or check clock skew"), reasons(tooMany));
        assertEquals(List.of(), reasons(CronDecision.decide(acj("*/5 * * * *", s -> { }), List.of(), now,
                ZoneOffset.UTC)), "a run starts: nothing held");
        assertEquals(reasons(forbid), forbid.debugSummary().reasons().stream()
                .map(dev.kruisevertx.controller.reason.BlockReason::text).toList(), "the debug plan carries them");
    }
}
