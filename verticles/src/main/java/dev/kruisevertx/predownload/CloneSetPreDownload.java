package dev.kruisevertx.predownload;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cloneset.CloneSetRevisions;
import dev.kruisevertx.cloneset.PartitionCalculator;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.inplace.InPlaceUpdateCalculator;
import dev.kruisevertx.inplace.InPlaceUpdateOptions;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OpenKruise's image pre-download before a CloneSet update (gate PreDownloadImageForInPlaceUpdate), as a pure
 * decision. While the current and update revisions differ, and once
 * {@code apps.kruise.io/image-predownload-min-updated-ready-pods} pods of the update revision are updated and ready,
 * an update revision not labelled yet is labelled {@code apps.kruise.io/image-predownload-ignored} when the CloneSet
 * recreates pods, has at most {@value #MIN_REPLICAS} replicas, updates every pod in one batch (partition 0 and
 * maxUnavailable at least replicas) or cannot update in place; else it gets one ImagePullJob per changed container
 * image and the label {@code apps.kruise.io/pre-predownload-created}. The labels make it happen once per revision.
 * When the revisions agree, the CloneSet's jobs are deleted. The update itself never waits for the pulls.
 */
public final class CloneSetPreDownload {
    /** OpenKruise's minimumReplicasToPreDownloadImage: a CloneSet of this many replicas or fewer never pre-downloads. */
    public static final int MIN_REPLICAS = 3;
    static final String DEFAULT_MAX_UNAVAILABLE = "20%";

    private CloneSetPreDownload() {
    }

    /**
     * @param enabled  gates KruiseDaemon and PreDownloadImageForInPlaceUpdate on, the ImagePullJob CRD served and
     *                 its cache synced
     * @param current  the current revision
     * @param update   the update revision
     * @param owned    the ImagePullJobs the CloneSet controls (cache)
     * @param inPlace  the in-place options the CloneSet updates with
     */
    public static PreDownloadPlan decide(boolean enabled, CloneSet cs, ControllerRevision current,
                                         ControllerRevision update, List<ImagePullJob> owned, InPlaceUpdateOptions inPlace) {
        if (!enabled) {
            return PreDownloadPlan.none("image pre-download is off");
        }
        String updateName = update.getMetadata().getName();
        if (current.getMetadata().getName().equals(updateName)) {
            List<String> live = PreDownloadJobs.live(owned);
            return live.isEmpty() ? PreDownloadPlan.none("the pods run one revision") : PreDownloadPlan.delete(live);
        }
        int replicas = cs.getSpec().getReplicas() == null ? 1 : cs.getSpec().getReplicas();
        Map<String, String> annotations = cs.getMetadata().getAnnotations() == null ? Map.of()
                : cs.getMetadata().getAnnotations();
        int min = PreDownloadValues.minUpdatedReadyPods(
                annotations.get(WellKnown.IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS_ANNOTATION), replicas);
        CloneSetStatus status = cs.getStatus();
        // The status counts pods of the revision it names: a newer update revision has none ready yet.
        int updatedReady = status != null && updateName.equals(status.getUpdateRevision())
                ? status.getUpdatedReadyReplicas() : 0;
        if (min > updatedReady) {
            return PreDownloadPlan.waiting("image pre-download waits for " + min + " updated ready pods, "
                    + updatedReady + " so far", Reasons.imagePreDownloadWaiting(min, updatedReady));
        }
        if (PreDownloadJobs.marked(update)) {
            PreDownloadPlan done = PreDownloadPlan.none("revision " + updateName + " is already "
                    + (PreDownloadJobs.revisionLabels(update).containsKey(PreDownloadJobs.CREATED_LABEL)
                    ? "pre-downloaded" : "ignored for pre-download"));
            return PreDownloadProgress.of(owned, updateName).map(done::showing).orElse(done);
        }
        CloneSetUpdateStrategy us = cs.getSpec().getUpdateStrategy();
        if (us != null && "ReCreate".equals(us.getType())) {
            return PreDownloadPlan.ignore("updateStrategy.type is ReCreate");
        }
        if (replicas <= MIN_REPLICAS) {
            return PreDownloadPlan.ignore(replicas + " replicas, at most " + MIN_REPLICAS);
        }
        int partition;
        try {
            partition = PartitionCalculator.partition(us == null ? null : us.getPartition(), replicas);
        } catch (IllegalArgumentException e) {
            // OpenKruise returns the error (logged) and tries again next reconcile; no label.
            return PreDownloadPlan.none("invalid updateStrategy.partition: " + e.getMessage());
        }
        IntOrString mu = us == null || us.getMaxUnavailable() == null ? new IntOrString(DEFAULT_MAX_UNAVAILABLE)
                : us.getMaxUnavailable();
        int maxUnavailable;
        try {
            maxUnavailable = IntOrPercent.scaledValue(mu, replicas, false);
        } catch (IllegalArgumentException e) {
            maxUnavailable = 0;
        }
        if (partition == 0 && maxUnavailable >= replicas) {
            return PreDownloadPlan.ignore("all " + replicas + " pods update in one batch (maxUnavailable "
                    + maxUnavailable + ")");
        }
        if (!InPlaceUpdateCalculator.canUpdateInPlace(current, update, inPlace)) {
            return PreDownloadPlan.ignore("revision " + updateName + " cannot be applied in place");
        }
        Map<String, String> images = PreDownloadImages.changed(List.of(current), update);
        List<ImagePullJob> jobs = missingJobs(cs, update, images, owned, cs.getSpec().getSelector() == null ? null
                : cs.getSpec().getSelector(), cs.getSpec().getTemplate(),
                CloneSetRevisions.ownerReference(cs));
        return PreDownloadPlan.create(jobs, "pre-downloading " + images.size() + " image(s) of revision " + updateName
                + " (" + jobs.size() + " job(s) to create)");
    }

    /** The jobs of the changed images whose name the cache does not hold yet. */
    static List<ImagePullJob> missingJobs(io.fabric8.kubernetes.api.model.HasMetadata owner, ControllerRevision update,
                                          Map<String, String> images, List<ImagePullJob> owned,
                                          io.fabric8.kubernetes.api.model.LabelSelector selector,
                                          io.fabric8.kubernetes.api.model.PodTemplateSpec template,
                                          io.fabric8.kubernetes.api.model.OwnerReference ref) {
        Set<String> existing = new HashSet<>();
        for (ImagePullJob j : owned) {
            existing.add(j.getMetadata().getName());
        }
        List<ImagePullJob> jobs = new ArrayList<>();
        for (Map.Entry<String, String> e : images.entrySet()) {
            if (!existing.contains(PreDownloadJobs.name(update, e.getKey()))) {
                jobs.add(PreDownloadJobs.job(owner, ref, selector, template, update, e.getKey(), e.getValue()));
            }
        }
        return jobs;
    }
}
