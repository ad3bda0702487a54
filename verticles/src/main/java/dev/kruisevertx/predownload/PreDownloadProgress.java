package dev.kruisevertx.predownload;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.Reasons;

import java.util.List;
import java.util.Optional;

/** How far the running pre-download jobs of an update revision are, for {@code kubectl kruise why}. */
final class PreDownloadProgress {
    private PreDownloadProgress() {
    }

    /** Succeeded and desired nodes over the revision's unfinished jobs; empty when none runs. */
    static Optional<BlockReason> of(List<ImagePullJob> owned, String updateRevision) {
        long done = 0;
        long total = 0;
        boolean running = false;
        for (ImagePullJob j : owned) {
            if (!j.getMetadata().getName().startsWith(updateRevision + "-") || j.getMetadata().getDeletionTimestamp() != null
                    || j.getStatus() != null && j.getStatus().getCompletionTime() != null) {
                continue;
            }
            running = true;
            if (j.getStatus() != null) {
                done += j.getStatus().getSucceeded();
                total += j.getStatus().getDesired();
            }
        }
        return running ? Optional.of(Reasons.imagePreDownload(done, total)) : Optional.empty();
    }
}
