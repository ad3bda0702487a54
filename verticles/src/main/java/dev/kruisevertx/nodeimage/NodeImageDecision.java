package dev.kruisevertx.nodeimage;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageStatus;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.ObjectReference;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * OpenKruise's nodeimage reconcile as a pure function. A Ready node gets an empty NodeImage (named after it)
 * {@code --nodeimage-creation-delay} after it turned Ready; a node gone or being deleted takes its NodeImage with it
 * (unless the NodeImage carries the fake label, for tests and virtual nodes). A NodeImage carries its node's labels,
 * so jobs can select nodes by label, and loses every tag without {@code createdAt}, every tag whose ImagePullJob
 * owners are all gone (another kind of owner is kept), and every tag whose {@code ttlSecondsAfterFinished} passed
 * since the node agent finished that version; an image without tags is dropped.
 */
public final class NodeImageDecision {
    public static final String FAKE_LABEL = "apps.kruise.io/fake-nodeimage";

    /** Whether an owner reference still names a live object (for ImagePullJobs: same namespace, name and uid). */
    @FunctionalInterface
    public interface Owners {
        boolean alive(ObjectReference ref);
    }

    private NodeImageDecision() {
    }

    public static NodeImagePlan decide(Node node, NodeImage nodeImage, Owners owners, Instant now,
                                       Duration creationDelay) {
        boolean nodeGone = node == null || node.getMetadata().getDeletionTimestamp() != null;
        if (nodeGone) {
            if (nodeImage == null || nodeImage.getMetadata().getDeletionTimestamp() != null) {
                return NodeImagePlan.none(null, "node and NodeImage gone");
            }
            if (nodeImage.getMetadata().getLabels() == null
                    || !nodeImage.getMetadata().getLabels().containsKey(FAKE_LABEL)) {
                return new NodeImagePlan(NodeImagePlan.Action.DELETE, null, null, null, List.of("node is gone"));
            }
            if (node == null) {
                return tags(null, nodeImage, owners, now);
            }
        }
        if (nodeImage == null) {
            NodeCondition ready = readyCondition(node);
            if (ready == null || !"True".equals(ready.getStatus())) {
                return NodeImagePlan.none(null, "node is not Ready");
            }
            Instant since = ready.getLastTransitionTime() == null ? Instant.EPOCH
                    : Instant.parse(ready.getLastTransitionTime());
            Duration left = creationDelay.minus(Duration.between(since, now));
            if (left.compareTo(Duration.ZERO) > 0) {
                return NodeImagePlan.none(left, "node Ready for less than the creation delay");
            }
            return new NodeImagePlan(NodeImagePlan.Action.CREATE, node.getMetadata().getLabels(), Map.of(), null,
                    List.of("node is Ready"));
        }
        if (nodeImage.getMetadata().getDeletionTimestamp() != null) {
            return NodeImagePlan.none(null, "NodeImage is being deleted");
        }
        return tags(node, nodeImage, owners, now);
    }

    private static NodeImagePlan tags(Node node, NodeImage nodeImage, Owners owners, Instant now) {
        boolean modified = false;
        List<String> messages = new ArrayList<>();
        Map<String, String> labels = nodeImage.getMetadata().getLabels();
        if (node != null && !Objects.equals(emptyToNull(labels), emptyToNull(node.getMetadata().getLabels()))) {
            modified = true;
            messages.add("node labels changed");
            labels = node.getMetadata().getLabels();
        }
        Duration wait = null;
        Map<String, ImageSpec> images = nodeImage.getSpec() == null ? Map.of() : nodeImage.getSpec().images();
        Map<String, ImageSpec> kept = new LinkedHashMap<>();
        for (Map.Entry<String, ImageSpec> e : images.entrySet()) {
            String name = e.getKey();
            ImageSpec image = e.getValue() == null ? new ImageSpec() : e.getValue();
            List<ImageTagSpec> tags = new ArrayList<>();
            // One look-up per tag: scanning the image's statuses for each tag was quadratic in its tags.
            Map<String, ImageTagStatus> reported = reportedTags(nodeImage, name);
            for (ImageTagSpec tag : image.tags()) {
                String full = name + ":" + tag.getTag();
                if (tag.getCreatedAt() == null) {
                    modified = true;
                    messages.add("image " + full + " has no createAt field");
                    continue;
                }
                List<ObjectReference> live = new ArrayList<>();
                for (ObjectReference ref : tag.ownerReferences()) {
                    if (!isImagePullJob(ref) || owners.alive(ref)) {
                        live.add(ref);
                    }
                }
                ImageTagSpec keptTag = tag;
                if (live.size() != tag.ownerReferences().size()) {
                    modified = true;
                    if (live.isEmpty()) {
                        messages.add("image " + full + " owners is cleared");
                        continue;
                    }
                    messages.add("image " + full + " owners changed from " + tag.ownerReferences().size() + " to "
                            + live.size());
                    keptTag = copyWithOwners(tag, live);
                }
                Integer ttl = tag.getPullPolicy() == null ? null : tag.getPullPolicy().getTtlSecondsAfterFinished();
                String completed = ttl == null ? null : completionTime(reported, tag);
                if (completed != null) {
                    Duration left = Duration.ofSeconds(ttl).minus(Duration.between(Instant.parse(completed), now));
                    if (left.compareTo(Duration.ZERO) <= 0) {
                        modified = true;
                        messages.add("image " + full + " has exceeded TTL (" + ttl + ")s since " + completed
                                + " completed");
                        continue;
                    }
                    wait = wait == null || left.compareTo(wait) < 0 ? left : wait;
                }
                tags.add(keptTag);
            }
            if (tags.isEmpty()) {
                modified = true;
                messages.add("no longer has " + name + " image spec");
                continue;
            }
            tags.sort(Comparator.comparing(ImageTagSpec::getTag));
            ImageSpec copy = new ImageSpec();
            copy.setPullSecrets(image.getPullSecrets());
            copy.setSandboxConfig(image.getSandboxConfig());
            copy.setTags(tags);
            kept.put(name, copy);
        }
        if (!modified) {
            return NodeImagePlan.none(wait, wait == null ? "up to date" : "waiting for a tag's TTL");
        }
        return new NodeImagePlan(NodeImagePlan.Action.UPDATE, labels, kept, wait, messages);
    }

    static boolean isImagePullJob(ObjectReference ref) {
        String apiVersion = ref.getApiVersion() == null ? "" : ref.getApiVersion();
        return ImagePullJob.KIND.equals(ref.getKind()) && apiVersion.startsWith(ImagePullJob.GROUP + "/");
    }

    private static ImageTagSpec copyWithOwners(ImageTagSpec tag, List<ObjectReference> owners) {
        ImageTagSpec copy = new ImageTagSpec();
        copy.setTag(tag.getTag());
        copy.setCreatedAt(tag.getCreatedAt());
        copy.setPullPolicy(tag.getPullPolicy());
        copy.setVersion(tag.getVersion());
        copy.setImagePullPolicy(tag.getImagePullPolicy());
        copy.setOwnerReferences(owners);
        return copy;
    }

    /** The node agent's status of each tag version of an image (the first one reported for it), by tag and version. */
    static Map<String, ImageTagStatus> reportedTags(NodeImage nodeImage, String name) {
        ImageStatus status = nodeImage.getStatus() == null ? null : nodeImage.getStatus().imageStatuses().get(name);
        if (status == null) {
            return Map.of();
        }
        Map<String, ImageTagStatus> byTagVersion = new java.util.HashMap<>();
        for (ImageTagStatus t : status.tags()) {
            if (t.getTag() != null) {
                byTagVersion.putIfAbsent(t.getTag() + '\u0000' + t.versionOrZero(), t);
            }
        }
        return byTagVersion;
    }

    /** When the node agent finished this tag at its current version, or null. */
    static String completionTime(Map<String, ImageTagStatus> reported, ImageTagSpec tag) {
        ImageTagStatus t = tag.getTag() == null ? null : reported.get(tag.getTag() + '\u0000' + tag.versionOrZero());
        return t == null ? null : t.getCompletionTime();
    }

    static NodeCondition readyCondition(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return null;
        }
        for (NodeCondition c : node.getStatus().getConditions()) {
            if ("Ready".equals(c.getType())) {
                return c;
            }
        }
        return null;
    }

    private static Map<String, String> emptyToNull(Map<String, String> m) {
        return m == null || m.isEmpty() ? null : m;
    }
}
