package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadStatus;
import dev.kruisevertx.controller.PlanSummary;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the workloadspread controller does for one WorkloadSpread, in OpenKruise's order: adopt running pods into
 * subsets (metadata patches), set pod deletion costs, write the status, delete pods unschedulable past
 * {@code rescheduleCriticalSeconds}.
 *
 * @param status        the new status, null when it is unchanged
 * @param skipped       why nothing is done, "" when something may be
 */
public record WorkloadSpreadPlan(String skipped, List<PodGrouping.MetadataPatch> adoptions,
                                 List<DeletionCost.Assignment> deletionCosts, WorkloadSpreadStatus status,
                                 List<Pod> rescheduled, Optional<Duration> requeueAfter, int pods) {

    static WorkloadSpreadPlan skip(String reason) {
        return new WorkloadSpreadPlan(reason, List.of(), List.of(), null, List.of(), Optional.empty(), 0);
    }

    /** Names, counts and reasons only. */
    public PlanSummary debugSummary() {
        if (!skipped.isEmpty()) {
            return PlanSummary.of("skipped: " + skipped);
        }
        PlanSummary.Builder b = PlanSummary.builder(status == null ? "in sync" : "status changed")
                .count("pods", pods)
                .count("adoptions", adoptions.size())
                .count("deletionCosts", deletionCosts.size())
                .count("rescheduled", rescheduled.size());
        for (DeletionCost.Assignment a : deletionCosts) {
            b.action("deletion-cost " + a.pod().getMetadata().getName() + "=" + a.value());
        }
        for (Pod p : rescheduled) {
            b.action("delete " + p.getMetadata().getName() + ": unschedulable past rescheduleCriticalSeconds");
        }
        return b.build();
    }
}
