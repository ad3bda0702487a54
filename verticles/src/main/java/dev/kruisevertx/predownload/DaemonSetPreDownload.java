package dev.kruisevertx.predownload;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetStatus;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateDaemonSet;
import dev.kruisevertx.api.common.IntOrPercent;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.List;
import java.util.Map;

/**
 * OpenKruise's image pre-download before an Advanced DaemonSet update (gate PreDownloadImageForDaemonSetUpdate), as
 * a pure decision. While the pods are not all updated (updatedNumberScheduled below desiredNumberScheduled) or the
 * status names another update revision, an update revision not labelled yet is labelled
 * {@code apps.kruise.io/image-predownload-ignored} when every pod updates in one batch (partition 0 and
 * maxUnavailable, default 1, at least desiredNumberScheduled); else it gets one ImagePullJob per container image that
 * differs from every old revision and the label {@code apps.kruise.io/pre-predownload-created}. Unlike the CloneSet
 * there is no in-place, replica or update-type check, and {@code image-predownload-min-updated-ready-pods} is read
 * but does not gate (OpenKruise v1.9.0 leaves that as a todo). Once all pods are updated the set's jobs are deleted.
 */
public final class DaemonSetPreDownload {
    private DaemonSetPreDownload() {
    }

    /**
     * @param enabled gates KruiseDaemon and PreDownloadImageForDaemonSetUpdate on, the ImagePullJob CRD served and
     *                its cache synced
     * @param old     every revision of the set but the update one
     * @param update  the update revision
     * @param hash    the update revision's hash (what {@code status.updateRevision} holds)
     * @param owned   the ImagePullJobs the set controls (cache)
     */
    public static PreDownloadPlan decide(boolean enabled, DaemonSet set, List<ControllerRevision> old,
                                         ControllerRevision update, String hash, List<ImagePullJob> owned) {
        if (!enabled) {
            return PreDownloadPlan.none("image pre-download is off");
        }
        DaemonSetStatus status = set.getStatus() == null ? new DaemonSetStatus() : set.getStatus();
        int desired = status.getDesiredNumberScheduled();
        String updateName = update.getMetadata().getName();
        if (status.getUpdatedNumberScheduled() == desired && hash.equals(status.getUpdateRevision())) {
            List<String> live = PreDownloadJobs.live(owned);
            return live.isEmpty() ? PreDownloadPlan.none("every pod is updated") : PreDownloadPlan.delete(live);
        }
        if (PreDownloadJobs.marked(update)) {
            PreDownloadPlan done = PreDownloadPlan.none("revision " + updateName + " is already "
                    + (PreDownloadJobs.revisionLabels(update).containsKey(PreDownloadJobs.CREATED_LABEL)
                    ? "pre-downloaded" : "ignored for pre-download"));
            return PreDownloadProgress.of(owned, updateName).map(done::showing).orElse(done);
        }
        RollingUpdateDaemonSet rolling = set.getSpec().getUpdateStrategy() == null ? null
                : set.getSpec().getUpdateStrategy().getRollingUpdate();
        int partition = 0;
        if (rolling != null && rolling.getPartition() != null) {
            try {
                partition = IntOrPercent.scaledValue(rolling.getPartition(), desired, false);
            } catch (IllegalArgumentException e) {
                // OpenKruise returns the error (logged) and tries again next reconcile; no label.
                return PreDownloadPlan.none("invalid rollingUpdate.partition: " + e.getMessage());
            }
        }
        IntOrString mu = rolling == null || rolling.getMaxUnavailable() == null ? new IntOrString(1)
                : rolling.getMaxUnavailable();
        int maxUnavailable;
        try {
            maxUnavailable = IntOrPercent.scaledValue(mu, desired, true);
        } catch (IllegalArgumentException e) {
            maxUnavailable = 0;
        }
        if (partition == 0 && maxUnavailable >= desired) {
            return PreDownloadPlan.ignore("all " + desired + " pods update in one batch (maxUnavailable "
                    + maxUnavailable + ")");
        }
        Map<String, String> images = PreDownloadImages.changed(old, update);
        List<ImagePullJob> jobs = CloneSetPreDownload.missingJobs(set, update, images, owned,
                set.getSpec().getSelector(), set.getSpec().getTemplate(), ownerReference(set));
        return PreDownloadPlan.create(jobs, "pre-downloading " + images.size() + " image(s) of revision " + updateName
                + " (" + jobs.size() + " job(s) to create)");
    }

    static OwnerReference ownerReference(DaemonSet set) {
        return new OwnerReferenceBuilder().withApiVersion(DaemonSet.API_VERSION).withKind(DaemonSet.KIND)
                .withName(set.getMetadata().getName()).withUid(set.getMetadata().getUid())
                .withController(true).withBlockOwnerDeletion(true).build();
    }
}
