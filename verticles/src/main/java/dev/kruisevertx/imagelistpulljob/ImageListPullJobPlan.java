package dev.kruisevertx.imagelistpulljob;

import dev.kruisevertx.api.apps.v1beta1.ImageListPullJobStatus;
import dev.kruisevertx.controller.PlanSummary;

import java.time.Duration;
import java.util.List;

/**
 * What the imagelistpulljob controller does for one ImageListPullJob now.
 *
 * @param templateHash the hash of the job template, labelled on the list job and its ImagePullJobs
 * @param relabel      the list job's {@code controller-revision-hash} label differs from {@code templateHash}
 * @param create       images to create an ImagePullJob for (new images, or images whose job has an older template)
 * @param delete       names of owned ImagePullJobs to delete (image removed from the list, or older template)
 * @param status       the status to write, or null to leave it (finished)
 * @param deleteSelf   the TTL after completion has passed
 * @param requeueAfter when to look again without an event, or null
 */
public record ImageListPullJobPlan(String templateHash, boolean relabel, List<String> create, List<String> delete,
                                   ImageListPullJobStatus status, boolean deleteSelf, Duration requeueAfter,
                                   String reason) {
    public ImageListPullJobPlan {
        create = List.copyOf(create);
        delete = List.copyOf(delete);
    }

    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(reason);
        if (!create.isEmpty()) {
            b.action("create " + create.size() + " ImagePullJob(s)");
        }
        if (!delete.isEmpty()) {
            b.action("delete " + delete.size() + " ImagePullJob(s)");
        }
        if (deleteSelf) {
            b.action("delete ImageListPullJob (TTL after finished)");
        }
        return b.build();
    }
}
