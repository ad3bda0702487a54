package dev.kruisevertx.predownload;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.controller.reason.BlockReason;

import java.util.List;

/**
 * What the pre-download step of a workload reconcile does: nothing, wait, mark the update revision as ignored,
 * create ImagePullJobs then mark the revision as done, or delete the workload's jobs once its pods all run one
 * revision.
 *
 * @param action what to do
 * @param create the jobs to create (CREATE), in container order; those already in the cache are left out
 * @param delete the names of the jobs to delete (DELETE)
 * @param label  the revision label to set ({@code apps.kruise.io/image-predownload-ignored} for IGNORE,
 *               {@code apps.kruise.io/pre-predownload-created} for CREATE), else null
 * @param reason why, in words (names, counts and rules only)
 * @param why    what {@code kubectl kruise why} shows (ImagePreDownload: waiting for updated ready pods, or the
 *               progress of the update revision's jobs), or null
 */
public record PreDownloadPlan(Action action, List<ImagePullJob> create, List<String> delete, String label,
                              String reason, BlockReason why) {
    public enum Action { NONE, WAIT, IGNORE, CREATE, DELETE }

    public static PreDownloadPlan none(String reason) {
        return new PreDownloadPlan(Action.NONE, List.of(), List.of(), null, reason, null);
    }

    static PreDownloadPlan waiting(String reason, BlockReason why) {
        return new PreDownloadPlan(Action.WAIT, List.of(), List.of(), null, reason, why);
    }

    PreDownloadPlan showing(BlockReason shown) {
        return new PreDownloadPlan(action, create, delete, label, reason, shown);
    }

    static PreDownloadPlan ignore(String reason) {
        return new PreDownloadPlan(Action.IGNORE, List.of(), List.of(), PreDownloadJobs.IGNORED_LABEL, reason, null);
    }

    static PreDownloadPlan create(List<ImagePullJob> jobs, String reason) {
        return new PreDownloadPlan(Action.CREATE, List.copyOf(jobs), List.of(), PreDownloadJobs.CREATED_LABEL, reason, null);
    }

    static PreDownloadPlan delete(List<String> names) {
        return new PreDownloadPlan(Action.DELETE, List.of(), List.copyOf(names), null,
                "the pods run one revision: deleting " + names.size() + " pre-download ImagePullJob(s)", null);
    }

    /** Whether carrying it out writes anything. */
    public boolean writes() {
        return action == Action.IGNORE || action == Action.CREATE || action == Action.DELETE;
    }
}
