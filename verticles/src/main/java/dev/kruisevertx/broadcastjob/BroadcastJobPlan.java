package dev.kruisevertx.broadcastjob;

import dev.kruisevertx.api.apps.v1beta1.BroadcastJobStatus;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.reason.BlockReason;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.util.List;

/**
 * What one BroadcastJob reconcile does, decided by {@link BroadcastJobDecision}.
 *
 * @param deleteJob   the job finished and its TTL passed: delete it (nothing else happens)
 * @param status      the status to write (null when it does not change: a finished job)
 * @param deletes     pods to delete, with why
 * @param createOn    nodes to create a pod on, in order (slow start)
 * @param pauseSpec   failurePolicy Pause met a failed pod: set {@code spec.paused}
 * @param events      Kubernetes Events to write
 * @param requeueAfter when to look again (deadline, TTL), null for never
 * @param reason      the decision in a few words, for the debug plan
 * @param reasons     what holds pods back (parallelism, pause, failure policy, no fitting node, pod blockers)
 */
public record BroadcastJobPlan(boolean deleteJob, BroadcastJobStatus status, List<Delete> deletes,
                               List<String> createOn, boolean pauseSpec, List<Event> events, Duration requeueAfter,
                               String reason, List<BlockReason> reasons) {

    public BroadcastJobPlan(boolean deleteJob, BroadcastJobStatus status, List<Delete> deletes, List<String> createOn,
                            boolean pauseSpec, List<Event> events, Duration requeueAfter, String reason) {
        this(deleteJob, status, deletes, createOn, pauseSpec, events, requeueAfter, reason, List.of());
    }

    public BroadcastJobPlan withReasons(List<BlockReason> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<BlockReason> all = new java.util.ArrayList<>(reasons);
        all.addAll(more);
        return new BroadcastJobPlan(deleteJob, status, deletes, createOn, pauseSpec, events, requeueAfter, reason,
                List.copyOf(all));
    }

    /** A pod to delete and why (names and reasons only reach the debug plan). */
    public record Delete(Pod pod, String reason) {
    }

    /** An Event as OpenKruise's controller writes it. */
    public record Event(String type, String reason, String message) {
    }

    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(reason).reasons(reasons)
                .count("create", createOn.size())
                .count("delete", deletes.size());
        if (status != null) {
            b.count("desired", status.getDesired()).count("active", status.getActive())
                    .count("succeeded", status.getSucceeded()).count("failed", status.getFailed());
        }
        if (deleteJob) {
            b.action("delete the job: ttlSecondsAfterFinished passed");
        }
        for (String node : createOn) {
            b.action("create a pod on node " + node);
        }
        for (Delete d : deletes) {
            b.action("delete pod " + d.pod().getMetadata().getName() + ": " + d.reason());
        }
        if (pauseSpec) {
            b.action("pause the job: failurePolicy Pause met a failed pod");
        }
        if (requeueAfter != null) {
            b.action("next look in " + requeueAfter);
        }
        return b.build();
    }
}
