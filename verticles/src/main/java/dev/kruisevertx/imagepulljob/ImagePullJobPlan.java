package dev.kruisevertx.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJobStatus;
import dev.kruisevertx.controller.PlanSummary;

import java.time.Duration;
import java.util.List;

/**
 * What the imagepulljob controller does for one job now.
 *
 * @param status           the status to write, or null to leave it (finished or deleting jobs)
 * @param injectInto       NodeImages to add the job's tag to now (at most parallelism minus the active ones)
 * @param removeFinalizer  drop the deletion-protection finalizer (job finished or being deleted)
 * @param deleteJob        the TTL after completion has passed
 * @param requeueAfter     when to look again without an event (deadline, TTL), or null
 * @param reason           why, in a few words (names and counts only)
 * @param addFinalizer     a running job without the deletion-protection finalizer gets it (OpenKruise's
 *                         addProtectionFinalizer: its pull secret copies are released before it goes)
 */
public record ImagePullJobPlan(ImagePullJobStatus status, List<String> injectInto, boolean removeFinalizer,
                               boolean deleteJob, Duration requeueAfter, String reason, boolean addFinalizer) {
    public ImagePullJobPlan {
        injectInto = List.copyOf(injectInto);
    }

    public ImagePullJobPlan(ImagePullJobStatus status, List<String> injectInto, boolean removeFinalizer,
                            boolean deleteJob, Duration requeueAfter, String reason) {
        this(status, injectInto, removeFinalizer, deleteJob, requeueAfter, reason, false);
    }

    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(reason);
        if (!injectInto.isEmpty()) {
            b.action("inject tag into " + injectInto.size() + " NodeImage(s)");
        }
        if (addFinalizer) {
            b.action("add finalizer");
        }
        if (removeFinalizer) {
            b.action("remove finalizer");
        }
        if (deleteJob) {
            b.action("delete job (TTL after finished)");
        }
        return b.build();
    }
}
