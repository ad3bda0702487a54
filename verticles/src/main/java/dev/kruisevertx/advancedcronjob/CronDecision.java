package dev.kruisevertx.advancedcronjob;

import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ConcurrencyPolicy;
import dev.kruisevertx.api.apps.v1beta1.TemplateKind;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.cron.CronSchedule;
import dev.kruisevertx.podutil.Pods;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The AdvancedCronJob decision, as OpenKruise's advancedcronjob controller: children to prune by the history limits,
 * whether a run is due now (the latest missed start since the last scheduled run, within
 * {@code startingDeadlineSeconds}, at most 100 missed starts), what the concurrency policy does to the active
 * children, and when to look again. Pure: the clock is the {@code now} argument.
 */
public final class CronDecision {
    /** More missed starts than this is an error rather than a catch-up, as OpenKruise and Kubernetes CronJob. */
    public static final int MAX_MISSED_STARTS = 100;
    public static final String TOO_MANY_MISSED = "TooManyMissedTimes";
    public static final String UNPARSEABLE = "UnparseableSchedule";

    private CronDecision() {
    }

    /**
     * @param children    the Jobs or BroadcastJobs this AdvancedCronJob controls (of its template's kind)
     * @param defaultZone the zone of a schedule without one (the manager's)
     */
    public static CronPlan decide(AdvancedCronJob acj, List<CronChild> children, Instant now, ZoneId defaultZone) {
        AdvancedCronJobSpec spec = acj.spec();
        TemplateKind kind = spec.template().kind();
        List<CronChild> active = new ArrayList<>();
        List<CronChild> succeeded = new ArrayList<>();
        List<CronChild> failed = new ArrayList<>();
        Instant last = Pods.parseTime(acj.status().getLastScheduleTime());
        for (CronChild c : children) {
            switch (c.outcome()) {
                case ACTIVE -> active.add(c);
                case SUCCEEDED -> succeeded.add(c);
                case FAILED -> failed.add(c);
                default -> throw new IllegalStateException("unknown outcome " + c.outcome());
            }
            if (c.scheduledAt() != null && (last == null || c.scheduledAt().isAfter(last))) {
                last = c.scheduledAt();
            }
        }
        List<CronPlan.Pruned> prune = new ArrayList<>();
        prune(failed, spec.getFailedJobsHistoryLimit(), "failedJobsHistoryLimit", prune);
        prune(succeeded, spec.getSuccessfulJobsHistoryLimit(), "successfulJobsHistoryLimit", prune);
        Plan p = new Plan(kind, active, last, prune);
        if (spec.pausedOrFalse()) {
            return p.done("paused", null, null, Reasons.schedulePaused("spec.paused"));
        }
        CronSchedule schedule;
        try {
            schedule = CronSchedule.forCronJob(spec.getSchedule(), spec.getTimeZone(), defaultZone);
        } catch (IllegalArgumentException e) {
            return p.done("unparsable schedule", null, new CronPlan.Problem(UNPARSEABLE,
                    "unparsable schedule \"" + spec.getSchedule() + "\": " + e.getMessage()));
        }
        Instant earliest = last != null ? last : Pods.parseTime(acj.getMetadata().getCreationTimestamp());
        if (earliest == null) {
            earliest = now;
        }
        Long deadline = spec.getStartingDeadlineSeconds();
        Instant sinceLastRun = earliest;
        if (deadline != null) {
            Instant schedulingDeadline = now.minusSeconds(deadline);
            if (schedulingDeadline.isAfter(earliest)) {
                earliest = schedulingDeadline;
            }
        }
        Instant missed = null;
        if (!earliest.isAfter(now)) {
            int starts = 0;
            for (Optional<Instant> t = schedule.next(earliest); t.isPresent() && !t.get().isAfter(now);
                    t = schedule.next(t.get())) {
                missed = t.get();
                if (++starts > MAX_MISSED_STARTS) {
                    return p.done("too many missed start times", null, new CronPlan.Problem(TOO_MANY_MISSED,
                            "too many missed start times (> " + MAX_MISSED_STARTS + "). Set or decrease "
                                    + ".spec.startingDeadlineSeconds or check clock skew"),
                            Reasons.tooManyMissedStarts(MAX_MISSED_STARTS));
                }
            }
        }
        Optional<Instant> next = schedule.next(now);
        Duration requeue = next.map(n -> Duration.between(now, n)).orElse(null);
        String nextText = next.map(n -> "next run at " + n).orElse("the schedule has no next time");
        if (missed == null) {
            // A run due between the last one and the starting deadline's window was skipped: say so.
            Optional<Instant> skipped = deadline == null ? Optional.empty() : schedule.next(sinceLastRun);
            if (skipped.isPresent() && !skipped.get().isAfter(now.minusSeconds(deadline))) {
                return p.done("no run due; " + nextText, requeue, null,
                        Reasons.startingDeadline(skipped.get().toString(), deadline));
            }
            return p.done("no run due; " + nextText, requeue, null);
        }
        if (deadline != null && missed.plusSeconds(deadline).isBefore(now)) {
            return p.done("missed the starting deadline of the run at " + missed + "; " + nextText, requeue, null,
                    Reasons.startingDeadline(missed.toString(), deadline));
        }
        ConcurrencyPolicy policy = spec.concurrencyPolicyValue().orElse(ConcurrencyPolicy.ALLOW);
        if (policy == ConcurrencyPolicy.FORBID && !active.isEmpty()) {
            List<String> activeNames = new ArrayList<>(active.stream().map(CronChild::name).toList());
            activeNames.sort(null);
            return p.done("concurrencyPolicy Forbid: " + active.size() + " run(s) still active, the run at " + missed
                    + " waits; " + nextText, requeue, null, Reasons.concurrencyForbid(missed.toString(), activeNames));
        }
        List<CronChild> replace = policy == ConcurrencyPolicy.REPLACE ? List.copyOf(active) : List.of();
        return new CronPlan(kind, active, last, prune, replace, missed, requeue,
                "start the run scheduled at " + missed + "; " + nextText, null);
    }

    /** Deletes the oldest finished children (by start time, unstarted first) beyond {@code limit}. */
    private static void prune(List<CronChild> finished, Integer limit, String field, List<CronPlan.Pruned> out) {
        if (limit == null || finished.size() <= limit) {
            return;
        }
        List<CronChild> sorted = new ArrayList<>(finished);
        sorted.sort(Comparator.comparing(CronChild::startTime, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(CronChild::name));
        for (CronChild c : sorted.subList(0, sorted.size() - Math.max(0, limit))) {
            out.add(new CronPlan.Pruned(c, field + " " + limit + " keeps the " + Math.max(0, limit) + " newest of "
                    + finished.size()));
        }
    }

    /** The parts every outcome shares. */
    private record Plan(TemplateKind kind, List<CronChild> active, Instant last, List<CronPlan.Pruned> prune) {
        CronPlan done(String reason, Duration requeue, CronPlan.Problem problem) {
            return new CronPlan(kind, active, last, prune, List.of(), null, requeue, reason, problem);
        }

        CronPlan done(String reason, Duration requeue, CronPlan.Problem problem, BlockReason held) {
            return new CronPlan(kind, active, last, prune, List.of(), null, requeue, reason, problem, List.of(held));
        }
    }
}
