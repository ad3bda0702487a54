package dev.kruisevertx.crr;

import dev.kruisevertx.controller.PlanSummary;

import java.time.Duration;
import java.util.List;

/**
 * What the manager does for one ContainerRecreateRequest, in order, and when to look again.
 *
 * @param steps        the writes, in the order they must happen
 * @param requeueAfter when to look again without an event; null for never
 * @param reason       one line for logs and the plan recorder
 */
public record CrrPlan(List<Step> steps, Duration requeueAfter, String reason) {

    /** One write. {@code message} is used by {@link Kind#COMPLETE}, {@code syncStatuses} by {@link Kind#SYNC_STATUSES}. */
    public record Step(Kind kind, String message, String syncStatuses) {
        static Step of(Kind kind) {
            return new Step(kind, null, null);
        }
    }

    public enum Kind {
        /** Take the pod's readiness back (KruisePodReady) and drop the finalizer that held it. */
        RELEASE_UNREADY,
        /** Drop the {@code crr.apps.kruise.io/active} label so the node agent stops watching the request. */
        DROP_ACTIVE_LABEL,
        /** ttlSecondsAfterFinished has passed. */
        DELETE,
        /** End the request: phase Completed, completion time, message. */
        COMPLETE,
        /** Copy the recreated containers' statuses into the {@code sync-container-statuses} annotation. */
        SYNC_STATUSES,
        /** Add the finalizer, make the pod not ready, and record the time in the unready-acquired annotation. */
        ACQUIRE_UNREADY
    }

    public CrrPlan {
        steps = List.copyOf(steps);
    }

    /**
     * The view on {@code /debug/plans}: the reason and the kind of each write, without messages or the synced
     * container statuses.
     */
    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(reason);
        steps.forEach(step -> b.action(step.kind().name()));
        if (requeueAfter != null && !requeueAfter.isZero()) {
            b.count("requeueAfterSeconds", requeueAfter.toSeconds());
        }
        return b.build();
    }

    public boolean isEmpty() {
        return steps.isEmpty();
    }
}
