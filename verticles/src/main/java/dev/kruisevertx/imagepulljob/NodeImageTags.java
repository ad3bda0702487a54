package dev.kruisevertx.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.CompletionPolicyType;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageStatus;
import dev.kruisevertx.api.apps.v1beta1.ImageTagPullPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.apps.v1beta1.NodeImageSpec;
import dev.kruisevertx.api.apps.v1beta1.PullPolicy;
import dev.kruisevertx.api.apps.v1beta1.ReferenceObject;
import dev.kruisevertx.image.ImageReference;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Adds an ImagePullJob's tag to a NodeImage as OpenKruise's syncNodeImages does: a tag already owned by the job is
 * left alone; a tag another job asked for gets this job as a further owner and a new version (a new pull round); a
 * new tag starts at the reported version plus one. Tags stay sorted by name.
 */
public final class NodeImageTags {
    static final int DEFAULT_TTL_SECONDS_FOR_NEVER = 24 * 3600;
    static final long DEFAULT_ACTIVE_DEADLINE_SECONDS_FOR_NEVER = 1800;

    private NodeImageTags() {
    }

    /**
     * Changes {@code nodeImage} (a copy) in place.
     *
     * @param now    RFC 3339 time for {@code createdAt}
     * @param jitter a value in [0, 1) spreading tag TTLs as OpenKruise's random offsets do
     * @return whether anything changed
     */
    public static boolean inject(NodeImage nodeImage, ImagePullJob job, String now, int defaultTtlForAlways,
                                 double jitter) {
        return inject(nodeImage, job, List.of(), now, defaultTtlForAlways, jitter);
    }

    /**
     * As above, and the image lists {@code secrets} (the job's pull secret copies) among its {@code pullSecrets};
     * a tag already owned by the job still gets a missing secret added.
     */
    public static boolean inject(NodeImage nodeImage, ImagePullJob job, List<ReferenceObject> secrets, String now,
                                 int defaultTtlForAlways, double jitter) {
        ImageReference ref = ImageReference.parse(job.spec().getImage()).get();
        if (nodeImage.getSpec() == null) {
            nodeImage.setSpec(new NodeImageSpec());
        }
        Map<String, ImageSpec> images = nodeImage.getSpec().getImages() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(nodeImage.getSpec().getImages());
        ImageSpec image = images.getOrDefault(ref.name(), new ImageSpec());
        List<ImageTagSpec> tags = new ArrayList<>(image.tags());
        ObjectReference owner = ownerRef(job);
        for (ImageTagSpec tag : tags) {
            if (!ref.tag().equals(tag.getTag())) {
                continue;
            }
            if (tag.ownerReferences().stream().anyMatch(o -> owner.getUid().equals(o.getUid()))) {
                if (!addSecrets(image, secrets)) {
                    return false;
                }
                return store(nodeImage, images, image, tags, job);
            }
            tag.setVersion(tag.versionOrZero() + 1);
            List<ObjectReference> owners = new ArrayList<>(tag.ownerReferences());
            owners.add(owner);
            tag.setOwnerReferences(owners);
            tag.setCreatedAt(now);
            tag.setImagePullPolicy(job.spec().getImagePullPolicy());
            addSecrets(image, secrets);
            return store(nodeImage, images, image, tags, job);
        }
        ImageTagSpec tag = new ImageTagSpec();
        tag.setTag(ref.tag());
        tag.setVersion(reportedVersion(nodeImage, ref) + 1);
        tag.setPullPolicy(tagPullPolicy(job, defaultTtlForAlways, jitter));
        tag.setOwnerReferences(List.of(owner));
        tag.setCreatedAt(now);
        tag.setImagePullPolicy(job.spec().getImagePullPolicy());
        tags.add(tag);
        addSecrets(image, secrets);
        return store(nodeImage, images, image, tags, job);
    }

    private static boolean store(NodeImage nodeImage, Map<String, ImageSpec> images, ImageSpec image,
                                 List<ImageTagSpec> tags, ImagePullJob job) {
        tags.sort(Comparator.comparing(ImageTagSpec::getTag));
        image.setTags(tags);
        image.setSandboxConfig(job.spec().getSandboxConfig());
        images.put(ImageReference.parse(job.spec().getImage()).get().name(), image);
        nodeImage.getSpec().setImages(images);
        return true;
    }

    /** Adds the secrets the image does not list yet (compared by namespace and name); whether any was added. */
    static boolean addSecrets(ImageSpec image, List<ReferenceObject> secrets) {
        List<ReferenceObject> listed = new ArrayList<>(image.pullSecrets());
        boolean added = false;
        for (ReferenceObject s : secrets) {
            if (!containsSecret(listed, s)) {
                listed.add(s);
                added = true;
            }
        }
        if (added) {
            image.setPullSecrets(listed);
        }
        return added;
    }

    /** OpenKruise's containsObject: namespace and name, not the mode. */
    static boolean containsSecret(List<ReferenceObject> listed, ReferenceObject s) {
        return listed.stream().anyMatch(o -> java.util.Objects.equals(o.getNamespace(), s.getNamespace())
                && java.util.Objects.equals(o.getName(), s.getName()));
    }

    static long reportedVersion(NodeImage nodeImage, ImageReference ref) {
        ImageStatus status = nodeImage.getStatus() == null ? null
                : nodeImage.getStatus().imageStatuses().get(ref.name());
        if (status != null) {
            for (ImageTagStatus t : status.tags()) {
                if (ref.tag().equals(t.getTag())) {
                    return t.versionOrZero();
                }
            }
        }
        return -1;
    }

    static ObjectReference ownerRef(ImagePullJob job) {
        return new ObjectReferenceBuilder().withApiVersion(ImagePullJob.API_VERSION).withKind(ImagePullJob.KIND)
                .withName(job.getMetadata().getName()).withNamespace(job.getMetadata().getNamespace())
                .withUid(job.getMetadata().getUid()).build();
    }

    /**
     * OpenKruise's getImagePullPolicy: the job's timeout and retries; Never jobs keep the tag about a day and give a
     * pull at least 30 minutes; Always jobs keep it for their TTL (else deadline, else timeout x retries) plus
     * {@code --default-ttlseconds-for-always-nodeimage} and up to 5 minutes more.
     */
    static ImageTagPullPolicy tagPullPolicy(ImagePullJob job, int defaultTtlForAlways, double jitter) {
        ImageTagPullPolicy p = new ImageTagPullPolicy();
        PullPolicy pull = job.spec().getPullPolicy();
        if (pull != null) {
            p.setBackoffLimit(pull.getBackoffLimit());
            p.setTimeoutSeconds(pull.getTimeoutSeconds());
        }
        CompletionPolicy completion = job.spec().completionPolicy();
        if (completion.typeValue().orElse(null) == CompletionPolicyType.NEVER) {
            p.setTtlSecondsAfterFinished(DEFAULT_TTL_SECONDS_FOR_NEVER + (int) (jitter * 1200) - 600);
            long timeout = pull == null || pull.getTimeoutSeconds() == null ? 0 : pull.getTimeoutSeconds();
            p.setActiveDeadlineSeconds(Math.max(timeout, DEFAULT_ACTIVE_DEADLINE_SECONDS_FOR_NEVER));
            return p;
        }
        long ttl;
        if (completion.getTtlSecondsAfterFinished() != null) {
            ttl = completion.getTtlSecondsAfterFinished();
        } else if (completion.getActiveDeadlineSeconds() != null) {
            ttl = completion.getActiveDeadlineSeconds();
        } else {
            PullPolicy defaults = pull == null ? new PullPolicy() : pull;
            ttl = (long) defaults.timeoutOrDefault() * defaults.backoffOrDefault();
        }
        ttl += defaultTtlForAlways + (long) (jitter * 300);
        p.setTtlSecondsAfterFinished((int) Math.min(Integer.MAX_VALUE, ttl));
        p.setActiveDeadlineSeconds(completion.getActiveDeadlineSeconds());
        return p;
    }
}
