package dev.kruisevertx.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageStatus;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.apps.v1beta1.NodeImageSpec;
import dev.kruisevertx.api.apps.v1beta1.NodeImageStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small builders for ImagePullJob and NodeImage decision tests. */
final class ImagePullJobFixtures {
    static final String UID = "job-uid";

    private ImagePullJobFixtures() {
    }

    static ImagePullJob job(String image) {
        ImagePullJob job = new ImagePullJob();
        job.setMetadata(new ObjectMetaBuilder().withName("pull").withNamespace("ns").withUid(UID).build());
        ImagePullJobSpec spec = new ImagePullJobSpec();
        spec.setImage(image);
        CompletionPolicy c = new CompletionPolicy();
        c.setType("Always");
        spec.setCompletionPolicy(c);
        job.setSpec(spec);
        return job;
    }

    static NodeImage nodeImage(String name, Map<String, String> labels) {
        NodeImage n = new NodeImage();
        n.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(labels).build());
        n.setSpec(new NodeImageSpec());
        return n;
    }

    /** Adds {@code name:tag} at {@code version}, owned by the job uid (or another uid). */
    static NodeImage withTag(NodeImage n, String name, String tag, long version, String ownerUid) {
        Map<String, ImageSpec> images = n.getSpec().getImages() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(n.getSpec().getImages());
        ImageSpec image = images.getOrDefault(name, new ImageSpec());
        List<ImageTagSpec> tags = new ArrayList<>(image.tags());
        ImageTagSpec t = new ImageTagSpec();
        t.setTag(tag);
        t.setVersion(version);
        t.setCreatedAt("2026-11-24T10:00:00Z");
        t.setOwnerReferences(List.of(new ObjectReferenceBuilder().withApiVersion("apps.kruise.io/v1beta1")
                .withKind("ImagePullJob").withNamespace("ns").withName("pull-" + ownerUid).withUid(ownerUid).build()));
        tags.add(t);
        image.setTags(tags);
        images.put(name, image);
        n.getSpec().setImages(images);
        return n;
    }

    static NodeImage withStatus(NodeImage n, String name, String tag, long version, String phase, String completed) {
        NodeImageStatus s = n.getStatus() == null ? new NodeImageStatus() : n.getStatus();
        Map<String, ImageStatus> statuses = s.getImageStatuses() == null ? new HashMap<>()
                : new HashMap<>(s.getImageStatuses());
        ImageStatus image = statuses.getOrDefault(name, new ImageStatus());
        List<ImageTagStatus> tags = new ArrayList<>(image.tags());
        ImageTagStatus t = new ImageTagStatus();
        t.setTag(tag);
        t.setVersion(version);
        t.setPhase(phase);
        t.setCompletionTime(completed);
        tags.add(t);
        image.setTags(tags);
        statuses.put(name, image);
        s.setImageStatuses(statuses);
        n.setStatus(s);
        return n;
    }

    static Pod pod(String name, String ns, String node, Map<String, String> labels, String phase, boolean deleting) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(ns).withLabels(labels)
                .withDeletionTimestamp(deleting ? "2026-11-24T10:00:00Z" : null).endMetadata()
                .withNewSpec().withNodeName(node).endSpec()
                .withNewStatus().withPhase(phase).endStatus().build();
    }

    static Map<String, NodeImage> byName(NodeImage... images) {
        Map<String, NodeImage> m = new HashMap<>();
        for (NodeImage n : images) {
            m.put(n.getMetadata().getName(), n);
        }
        return m;
    }
}
