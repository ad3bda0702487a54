package dev.kruisevertx.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.CompletionPolicyType;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobStatus;
import dev.kruisevertx.api.apps.v1beta1.ImagePullPhase;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageStatus;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.apps.v1beta1.ReferenceObject;
import dev.kruisevertx.image.ImageReference;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectReference;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * OpenKruise's imagepulljob reconcile as a pure function: the job, its target NodeImages (in target order) and now
 * to a plan. A node counts as succeeded or failed when its NodeImage reports that phase for the job's tag at the
 * version the job injected, as pulling while the tag is there without a final phase, and as not synced while the tag
 * does not name the job. New nodes get the tag up to {@code parallelism} (default 1) minus the pulling ones.
 */
public final class ImagePullJobDecision {
    public static final String FINALIZER = "apps.kruise.io/deletion-protection";
    static final int DEFAULT_PARALLELISM = 1;
    static final Duration MIN_REQUEUE = Duration.ofSeconds(1);

    private ImagePullJobDecision() {
    }

    public static ImagePullJobPlan decide(ImagePullJob job, List<NodeImage> targets, Instant now) {
        return decide(job, targets, List.of(), now);
    }

    /**
     * @param secrets the job's pull secret copies: a NodeImage whose image does not list them all yet is not synced
     *                (it gets them with the next injection, as OpenKruise's calculateStatus counts it)
     */
    public static ImagePullJobPlan decide(ImagePullJob job, List<NodeImage> targets, List<ReferenceObject> secrets,
                                          Instant now) {
        boolean hasFinalizer = job.getMetadata().getFinalizers() != null
                && job.getMetadata().getFinalizers().contains(FINALIZER);
        if (job.getMetadata().getDeletionTimestamp() != null) {
            return new ImagePullJobPlan(null, List.of(), hasFinalizer, false, null, "being deleted");
        }
        ImagePullJobStatus old = job.getStatus();
        CompletionPolicy completion = job.spec().completionPolicy();
        if (old != null && old.getCompletionTime() != null) {
            Integer ttl = completion.getTtlSecondsAfterFinished();
            if (ttl == null) {
                return new ImagePullJobPlan(null, List.of(), hasFinalizer, false, null, "finished");
            }
            Duration left = Duration.ofSeconds(ttl).minus(Duration.between(Instant.parse(old.getCompletionTime()), now));
            if (left.isNegative() || left.isZero()) {
                return new ImagePullJobPlan(null, List.of(), hasFinalizer, true, null,
                        "finished " + ttl + "s ago (ttlSecondsAfterFinished)");
            }
            return new ImagePullJobPlan(null, List.of(), hasFinalizer, false, left, "finished, deleted after its TTL");
        }
        ImageReference.Result parsed = ImageReference.parse(job.spec().getImage());
        if (!parsed.valid()) {
            return new ImagePullJobPlan(null, List.of(), false, false, null, "invalid image: " + parsed.error());
        }
        ImageReference ref = parsed.get();
        String uid = job.getMetadata().getUid();
        String nowText = now.truncatedTo(ChronoUnit.SECONDS).toString();
        ImagePullJobStatus status = new ImagePullJobStatus();
        status.setStartTime(old != null && old.getStartTime() != null ? old.getStartTime() : nowText);
        status.setDesired(targets.size());
        List<String> pulling = new ArrayList<>();
        List<String> succeeded = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<String> notSynced = new ArrayList<>();
        for (NodeImage nodeImage : targets) {
            String node = nodeImage.getMetadata().getName();
            long version = ownedTagVersion(nodeImage, ref, uid);
            boolean secretsListed = secrets.isEmpty() || secretsListed(nodeImage, ref, secrets);
            if (version < 0) {
                notSynced.add(node);
                continue;
            }
            if (!secretsListed) {
                // OpenKruise counts it as not synced and still by its phase; listing the secrets is a new injection.
                notSynced.add(node);
            }
            ImagePullPhase phase = phase(nodeImage, ref, version);
            if (phase == ImagePullPhase.SUCCEEDED) {
                succeeded.add(node);
            } else if (phase == ImagePullPhase.FAILED) {
                failed.add(node);
            } else {
                pulling.add(node);
            }
        }
        boolean always = !completion.typeValue().map(t -> t == CompletionPolicyType.NEVER).orElse(false);
        Long deadline = completion.getActiveDeadlineSeconds();
        Duration requeue = null;
        if (always && deadline != null && targets.size() != succeeded.size() + failed.size()) {
            Duration left = Duration.ofSeconds(deadline).minus(Duration.between(Instant.parse(status.getStartTime()), now));
            if (left.isNegative() || left.isZero()) {
                status.setCompletionTime(nowText);
                status.setSucceeded(succeeded.size());
                List<String> all = new ArrayList<>(failed);
                all.addAll(pulling);
                // A node whose tag is there but lacks a secret is both counted by phase and not synced: count it once.
                java.util.Set<String> counted = new java.util.HashSet<>(all);
                counted.addAll(succeeded);
                all.addAll(notSynced.stream().filter(n -> !counted.contains(n)).sorted().toList());
                status.setFailed(all.size());
                status.setFailedNodes(all);
                status.setMessage("job exceeds activeDeadlineSeconds");
                return new ImagePullJobPlan(status, List.of(), false, false, null, "active deadline passed",
                        false); // finishing now: a finalizer added here would go again next round
            }
            requeue = left.compareTo(MIN_REQUEUE) < 0 ? MIN_REQUEUE : left;
        }
        status.setActive(pulling.size());
        status.setSucceeded(succeeded.size());
        status.setFailed(failed.size());
        List<String> failedNodes = new ArrayList<>(failed);
        failedNodes.sort(null);
        status.setFailedNodes(failedNodes.isEmpty() ? null : failedNodes);
        if (always && status.getDesired() - status.getSucceeded() - status.getFailed() == 0) {
            status.setCompletionTime(nowText);
        }
        status.setMessage(message(status));
        int room = parallelism(job.spec().getParallelism()) - pulling.size();
        List<String> inject = room <= 0 ? List.of() : notSynced.subList(0, Math.min(room, notSynced.size()));
        String reason = status.getCompletionTime() != null ? "completed"
                : String.format(Locale.ROOT, "%d pulling, %d waiting for parallelism %d", pulling.size(),
                notSynced.size() - inject.size(), parallelism(job.spec().getParallelism()));
        return new ImagePullJobPlan(status, inject, false, false, requeue, reason, !hasFinalizer);
    }

    /** OpenKruise's IntOrString.IntValue(): an int, a string parsed as an int, anything else 0. */
    static int parallelism(IntOrString parallelism) {
        if (parallelism == null) {
            return DEFAULT_PARALLELISM;
        }
        if (parallelism.getIntVal() != null) {
            return parallelism.getIntVal();
        }
        try {
            return Integer.parseInt(parallelism.getStrVal());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** OpenKruise's formatStatusMessage. */
    static String message(ImagePullJobStatus status) {
        if (status.getCompletionTime() != null) {
            return "job has completed";
        }
        if (status.getDesired() == 0) {
            return "job is running, no progress";
        }
        return String.format(Locale.ROOT, "job is running, progress %.1f%%",
                100.0 * (status.getSucceeded() + status.getFailed()) / status.getDesired());
    }

    /** The version of the job's tag on this NodeImage, or -1 when the tag is absent or does not name the job. */
    static long ownedTagVersion(NodeImage nodeImage, ImageReference ref, String uid) {
        ImageSpec spec = nodeImage.getSpec() == null ? null : nodeImage.getSpec().images().get(ref.name());
        if (spec == null) {
            return -1;
        }
        for (ImageTagSpec tag : spec.tags()) {
            if (!ref.tag().equals(tag.getTag())) {
                continue;
            }
            for (ObjectReference owner : tag.ownerReferences()) {
                if (uid != null && uid.equals(owner.getUid())) {
                    return tag.versionOrZero();
                }
            }
            return -1;
        }
        return -1;
    }

    static boolean secretsListed(NodeImage nodeImage, ImageReference ref, List<ReferenceObject> secrets) {
        ImageSpec spec = nodeImage.getSpec() == null ? null : nodeImage.getSpec().images().get(ref.name());
        if (spec == null) {
            return false;
        }
        for (ReferenceObject s : secrets) {
            if (!NodeImageTags.containsSecret(spec.pullSecrets(), s)) {
                return false;
            }
        }
        return true;
    }

    /** The reported phase of the tag at {@code version}; null while the node agent has not reported that version. */
    static ImagePullPhase phase(NodeImage nodeImage, ImageReference ref, long version) {
        ImageStatus status = nodeImage.getStatus() == null ? null
                : nodeImage.getStatus().imageStatuses().get(ref.name());
        if (status == null) {
            return null;
        }
        for (ImageTagStatus tag : status.tags()) {
            if (ref.tag().equals(tag.getTag())) {
                return tag.versionOrZero() == version ? tag.phaseValue().orElse(ImagePullPhase.PULLING) : null;
            }
        }
        return null;
    }
}
