package dev.kruisevertx.imagelistpulljob;

import dev.kruisevertx.api.apps.v1beta1.CompletionPolicyType;
import dev.kruisevertx.api.apps.v1beta1.FailedImageStatus;
import dev.kruisevertx.api.apps.v1beta1.ImageListPullJob;
import dev.kruisevertx.api.apps.v1beta1.ImageListPullJobStatus;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobStatus;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.revision.RevisionHash;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * OpenKruise's imagelistpulljob reconcile as a pure function: one ImagePullJob per listed image, carrying the list
 * job's template; a job whose template hash is older is replaced, a job whose image left the list is deleted; the
 * status counts the ImagePullJobs that started (active, completed: every node finished, succeeded: every node
 * succeeded, failedImageStatuses: any node failed); completion policy Always completes when every image's job
 * completed, and a finished list job is deleted {@code ttlSecondsAfterFinished} after it.
 */
public final class ImageListPullJobDecision {
    private ImageListPullJobDecision() {
    }

    /** The template's hash: FNV-1a over its JSON without the image list, made label-safe as kube's hashes are. */
    public static String templateHash(ImageListPullJob job) {
        com.fasterxml.jackson.databind.node.ObjectNode spec = ApiJson.serialization().convertValue(job.getSpec(),
                com.fasterxml.jackson.databind.node.ObjectNode.class);
        if (spec == null) {
            spec = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        }
        spec.remove("images");
        return RevisionHash.fnv1a(ApiJson.toJson(spec).getBytes(StandardCharsets.UTF_8), null);
    }

    /** @param owned the ImagePullJobs the list job controls that are not being deleted */
    public static ImageListPullJobPlan decide(ImageListPullJob job, List<ImagePullJob> owned, Instant now) {
        String hash = templateHash(job);
        boolean relabel = !hash.equals(label(job.getMetadata().getLabels()));
        ImageListPullJobStatus old = job.getStatus();
        if (old != null && old.getCompletionTime() != null) {
            Integer ttl = job.spec().completionPolicy().getTtlSecondsAfterFinished();
            if (ttl == null) {
                return new ImageListPullJobPlan(hash, relabel, List.of(), List.of(), null, false, null, "finished");
            }
            Duration left = Duration.ofSeconds(ttl).minus(Duration.between(Instant.parse(old.getCompletionTime()), now));
            if (left.isNegative() || left.isZero()) {
                return new ImageListPullJobPlan(hash, relabel, List.of(), List.of(), null, true, null,
                        "finished " + ttl + "s ago (ttlSecondsAfterFinished)");
            }
            return new ImageListPullJobPlan(hash, relabel, List.of(), List.of(), null, false, left,
                    "finished, deleted after its TTL");
        }
        List<String> images = job.spec().images().stream().distinct().toList();
        // One job per image: the current template's (the oldest of them), else the oldest. OpenKruise keeps whichever
        // its map ends with; when the cache saw a replacement job before the replaced one's deletion, that could be the
        // replaced one, so the image got a second replacement, and two jobs of one image stayed for good. Here every
        // other job of an image is deleted.
        List<ImagePullJob> sorted = new ArrayList<>(owned);
        sorted.removeIf(j -> j.getSpec() == null || j.getSpec().getImage() == null);
        sorted.sort(Comparator.comparing((ImagePullJob j) -> !hash.equals(label(j.getMetadata().getLabels())))
                .thenComparing(j -> j.getMetadata().getCreationTimestamp() == null ? ""
                        : j.getMetadata().getCreationTimestamp())
                .thenComparing(j -> j.getMetadata().getName()));
        Map<String, ImagePullJob> byImage = new LinkedHashMap<>();
        List<String> create = new ArrayList<>();
        List<String> delete = new ArrayList<>();
        for (ImagePullJob j : sorted) {
            if (byImage.putIfAbsent(j.getSpec().getImage(), j) != null) {
                delete.add(j.getMetadata().getName());
            }
        }
        for (String image : images) {
            ImagePullJob existing = byImage.get(image);
            if (existing == null) {
                create.add(image);
            } else if (!hash.equals(label(existing.getMetadata().getLabels()))) {
                create.add(image);
                delete.add(existing.getMetadata().getName());
            }
        }
        for (Map.Entry<String, ImagePullJob> e : byImage.entrySet()) {
            if (!images.contains(e.getKey())) {
                delete.add(e.getValue().getMetadata().getName());
            }
        }
        ImageListPullJobStatus status = status(job, byImage, images, now);
        String reason = status.getCompletionTime() != null ? "completed" : String.format(Locale.ROOT,
                "%d of %d image(s) completed, %d active", status.getCompleted(), status.getDesired(),
                status.getActive());
        return new ImageListPullJobPlan(hash, relabel, create, delete, status, false, null, reason);
    }

    /** OpenKruise's calculateStatus over the jobs of the listed images that have started. */
    static ImageListPullJobStatus status(ImageListPullJob job, Map<String, ImagePullJob> byImage, List<String> images,
                                         Instant now) {
        int active = 0;
        int completed = 0;
        int succeeded = 0;
        List<FailedImageStatus> failed = new ArrayList<>();
        for (ImagePullJob j : byImage.values()) {
            ImagePullJobStatus s = j.getStatus();
            if (s == null || s.getStartTime() == null) {
                continue;
            }
            if (s.getActive() > 0) {
                active++;
            }
            if (s.getFailed() > 0) {
                FailedImageStatus f = new FailedImageStatus();
                f.setImagePullJob(j.getMetadata().getName());
                f.setName(j.getSpec().getImage());
                f.setMessage("Please check for details which nodes failed by 'kubectl get ImagePullJob "
                        + j.getMetadata().getName() + "'.");
                failed.add(f);
            }
            if (s.getDesired() == s.getFailed() + s.getSucceeded()) {
                completed++;
            }
            if (s.getDesired() == s.getSucceeded()) {
                succeeded++;
            }
        }
        String nowText = now.truncatedTo(ChronoUnit.SECONDS).toString();
        ImageListPullJobStatus status = new ImageListPullJobStatus();
        status.setDesired(job.spec().images().size());
        status.setActive(active);
        status.setCompleted(completed);
        status.setSucceeded(succeeded);
        status.setFailedImageStatuses(failed.isEmpty() ? null : failed);
        ImageListPullJobStatus old = job.getStatus();
        status.setStartTime(old != null && old.getStartTime() != null ? old.getStartTime() : nowText);
        boolean never = job.spec().completionPolicy().typeValue().map(t -> t == CompletionPolicyType.NEVER)
                .orElse(false);
        if (!never && status.getDesired() == status.getCompleted()) {
            status.setCompletionTime(nowText);
        }
        return status;
    }

    static String label(Map<String, String> labels) {
        return labels == null ? null : labels.get(WellKnown.CONTROLLER_REVISION_HASH_LABEL);
    }
}
