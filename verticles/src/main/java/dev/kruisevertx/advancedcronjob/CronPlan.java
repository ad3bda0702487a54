package dev.kruisevertx.advancedcronjob;

import dev.kruisevertx.api.apps.v1beta1.TemplateKind;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.reason.BlockReason;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What one AdvancedCronJob reconcile does, decided by {@link CronDecision}.
 *
 * @param kind            the kind of child ({@code status.type})
 * @param active          the children still running, for {@code status.active}
 * @param lastScheduleTime the latest scheduled-at of any child ({@code status.lastScheduleTime}), null when none
 * @param prune           finished children beyond the history limits, oldest first
 * @param replace         active children deleted because the policy is Replace and a run is due
 * @param create          the scheduled time of the run to start now, null when none
 * @param requeueAfter    when the next run is due, null when never (paused, unparsable, no next time)
 * @param reason          why no run starts now (or "start run ..."), for the debug plan
 * @param error           a schedule problem reported as a Warning event (unparsable, too many missed starts)
 * @param reasons         what holds a due run back (paused, concurrencyPolicy Forbid, missed starts)
 */
public record CronPlan(TemplateKind kind, List<CronChild> active, Instant lastScheduleTime, List<Pruned> prune,
                       List<CronChild> replace, Instant create, Duration requeueAfter, String reason, Problem error,
                       List<BlockReason> reasons) {

    public CronPlan(TemplateKind kind, List<CronChild> active, Instant lastScheduleTime, List<Pruned> prune,
                    List<CronChild> replace, Instant create, Duration requeueAfter, String reason, Problem error) {
        this(kind, active, lastScheduleTime, prune, replace, create, requeueAfter, reason, error, List.of());
    }

    /** A finished child to delete, and which history limit removes it. */
    public record Pruned(CronChild child, String reason) {
    }

    /** A problem with the schedule, as the Warning event states it. */
    public record Problem(String eventReason, String message) {
    }

    /** Names, counts and reasons only. */
    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(reason).reasons(reasons)
                .count("active", active.size())
                .count("prune", prune.size())
                .count("replace", replace.size())
                .count("create", create == null ? 0 : 1);
        for (Pruned p : prune) {
            b.action("delete " + p.child().name() + ": " + p.reason());
        }
        for (CronChild c : replace) {
            b.action("delete " + c.name() + ": active while a new run starts (concurrencyPolicy Replace)");
        }
        if (create != null) {
            b.action("create " + kind.value() + " for the run scheduled at " + create);
        }
        if (error != null) {
            b.action(error.eventReason() + ": " + error.message());
        }
        if (requeueAfter != null) {
            b.action("next look in " + requeueAfter);
        }
        return b.build();
    }
}
