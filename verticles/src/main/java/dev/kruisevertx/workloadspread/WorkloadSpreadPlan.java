package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadStatus;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.reason.BlockReason;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the workloadspread controller does for one WorkloadSpread, in OpenKruise's order: adopt running pods into
 * subsets (metadata patches), set pod deletion costs, write the status, delete pods unschedulable past
 * {@code rescheduleCriticalSeconds}; then the Events of the calculation (expired records, recovered subsets).
 *
 * @param status        the new status, null when it is unchanged
 * @param skipped       why nothing is done, "" when something may be
 * @param events        Events to emit once the status that drops their records is written
 * @param reasons       what holds the spread back ({@code kubectl kruise why workloadspread/NAME})
 */
public record WorkloadSpreadPlan(String skipped, List<PodGrouping.MetadataPatch> adoptions,
                                 List<DeletionCost.Assignment> deletionCosts, WorkloadSpreadStatus status,
                                 List<Pod> rescheduled, Optional<Duration> requeueAfter, int pods,
                                 List<SubsetStatusCalculation.Event> events, List<BlockReason> reasons) {

    static WorkloadSpreadPlan skip(String reason) {
        return new WorkloadSpreadPlan(reason, List.of(), List.of(), null, List.of(), Optional.empty(), 0, List.of(),
                List.of());
    }

    /** Nothing is decided while the cache has not shown this controller's own pod writes. */
    static WorkloadSpreadPlan waiting(BlockReason reason, Duration recheck) {
        return new WorkloadSpreadPlan("", List.of(), List.of(), null, List.of(), Optional.of(recheck), 0, List.of(),
                List.of(reason));
    }

    /** Whether the actuator has something to write. */
    boolean acts() {
        return skipped.isEmpty() && (!adoptions.isEmpty() || !deletionCosts.isEmpty() || status != null
                || !rescheduled.isEmpty());
    }

    WorkloadSpreadPlan withReasons(List<BlockReason> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<BlockReason> all = new java.util.ArrayList<>(reasons);
        all.addAll(more);
        return new WorkloadSpreadPlan(skipped, adoptions, deletionCosts, status, rescheduled, requeueAfter, pods,
                events, all);
    }

    /** Names, counts and reasons only. */
    public PlanSummary debugSummary() {
        if (!skipped.isEmpty()) {
            return PlanSummary.builder("skipped: " + skipped).reasons(reasons).build();
        }
        String summary = !reasons.isEmpty() && !acts() && pods == 0 ? "waiting"
                : status == null ? "in sync" : "status changed";
        PlanSummary.Builder b = PlanSummary.builder(summary)
                .count("pods", pods)
                .count("adoptions", adoptions.size())
                .count("deletionCosts", deletionCosts.size())
                .count("rescheduled", rescheduled.size())
                .count("events", events.size());
        for (DeletionCost.Assignment a : deletionCosts) {
            b.action("deletion-cost " + a.pod().getMetadata().getName() + "=" + a.value());
        }
        for (Pod p : rescheduled) {
            b.action("delete " + p.getMetadata().getName() + ": unschedulable past rescheduleCriticalSeconds");
        }
        for (SubsetStatusCalculation.Event e : events) {
            b.action("event " + e.reason());
        }
        return b.reasons(reasons).build();
    }
}
