package dev.kruisevertx.bench.imagepull;

import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobNodeSelector;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobPodSelector;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageStatus;
import dev.kruisevertx.api.apps.v1beta1.ImageTagPullPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.apps.v1beta1.NodeImageSpec;
import dev.kruisevertx.api.apps.v1beta1.NodeImageStatus;
import dev.kruisevertx.bench.DecisionBenchmark;
import dev.kruisevertx.imagepulljob.ImagePullJobDecision;
import dev.kruisevertx.imagepulljob.ImagePullJobPlan;
import dev.kruisevertx.imagepulljob.ImagePullJobTargets;
import dev.kruisevertx.imagepulljob.NodeImageTags;
import dev.kruisevertx.nodeimage.NodeImageDecision;
import dev.kruisevertx.nodeimage.NodeImagePlan;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pure decisions of NodeImage reconciliation for an ImagePullJob that targets every node of a large cluster, from
 * cached objects to plans (no API calls): the targets (no selector, a label selector, a podSelector over 3 pods per
 * node), the job's status and injection plan over every NodeImage (a third finished, a third pulling, a third not
 * synced yet), injecting the tag into every NodeImage the plan names (each on a fresh copy of its spec, as the
 * actuator edits a copy), the whole reconcile (targets + decision + injection), and the nodeimage controller's
 * decision for one node carrying many tags of one image.
 */
public class ImagePullDecisionBenchmark extends DecisionBenchmark {
    private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
    private static final String NOW_TEXT = "2026-11-24T12:00:00Z";
    private static final String IMAGE = "registry.local/app";

    @Param({"1000", "5000"})
    int nodes;

    @Param({"100", "1000"})
    int tagsOnOneNode;

    private ImagePullJob allNodesJob;
    private ImagePullJob labelJob;
    private ImagePullJob podJob;
    private Map<String, NodeImage> nodeImages;
    private List<Pod> pods;
    private Node bigNode;
    private NodeImage bigNodeImage;
    private NodeImageDecision.Owners owners;

    @Setup
    public void setUp() {
        allNodesJob = job("all", "uid-all", spec -> { });
        labelJob = job("zoned", "uid-zoned", spec -> {
            ImagePullJobNodeSelector selector = new ImagePullJobNodeSelector();
            selector.setMatchLabels(Map.of("pool", "general"));
            spec.setSelector(selector);
        });
        podJob = job("pods", "uid-pods", spec -> {
            ImagePullJobPodSelector selector = new ImagePullJobPodSelector();
            selector.setMatchLabels(Map.of("app", "web"));
            spec.setPodSelector(selector);
        });
        nodeImages = new LinkedHashMap<>();
        pods = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            String node = String.format("node-%05d", i);
            // Every third node: the job's tag finished; every third: pulling; the rest: not synced yet.
            nodeImages.put(node, nodeImage(node, i % 3 == 0 ? "Succeeded" : i % 3 == 1 ? "Pulling" : null));
            for (int p = 0; p < 3; p++) {
                pods.add(new PodBuilder().withNewMetadata().withName("web-" + i + "-" + p).withNamespace("default")
                        .withLabels(Map.of("app", p == 2 ? "other" : "web")).endMetadata()
                        .withNewSpec().withNodeName(node).endSpec().withNewStatus().withPhase("Running").endStatus()
                        .build());
            }
        }
        bigNode = new NodeBuilder().withMetadata(new ObjectMetaBuilder().withName("big").withLabels(Map.of("pool",
                "general")).build()).build();
        bigNodeImage = manyTags("big", tagsOnOneNode);
        Set<String> liveUids = new HashSet<>();
        for (int t = 0; t < tagsOnOneNode; t += 2) {
            liveUids.add("uid-" + t);
        }
        // Half of the tags' owner jobs are gone.
        owners = ref -> liveUids.contains(ref.getUid());
    }

    private static ImagePullJob job(String name, String uid, java.util.function.Consumer<ImagePullJobSpec> edit) {
        ImagePullJobSpec spec = new ImagePullJobSpec();
        spec.setImage(IMAGE + ":2");
        spec.setParallelism(new IntOrString(100_000));
        CompletionPolicy completion = new CompletionPolicy();
        completion.setType("Always");
        spec.setCompletionPolicy(completion);
        edit.accept(spec);
        ImagePullJob job = new ImagePullJob();
        job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").withUid(uid)
                .withCreationTimestamp(NOW_TEXT).build());
        job.setSpec(spec);
        return job;
    }

    private static ObjectReference owner(String name, String uid) {
        return new ObjectReferenceBuilder().withApiVersion(ImagePullJob.API_VERSION).withKind(ImagePullJob.KIND)
                .withNamespace("default").withName(name).withUid(uid).build();
    }

    /** A node's NodeImage with two other images, and the job's tag in the given phase (null: not injected yet). */
    private static NodeImage nodeImage(String node, String phase) {
        Map<String, ImageSpec> images = new LinkedHashMap<>();
        Map<String, ImageStatus> statuses = new LinkedHashMap<>();
        for (String other : List.of("registry.local/base", "registry.local/sidecar")) {
            images.put(other, image(List.of(tag("1", 1, owner("other", "uid-other")))));
            statuses.put(other, status(List.of(tagStatus("1", 1, "Succeeded"))));
        }
        if (phase != null) {
            images.put(IMAGE, image(List.of(tag("2", 1, owner("all", "uid-all")))));
            statuses.put(IMAGE, status(List.of(tagStatus("2", 1, phase))));
        }
        NodeImageSpec spec = new NodeImageSpec();
        spec.setImages(images);
        NodeImageStatus status = new NodeImageStatus();
        status.setImageStatuses(statuses);
        NodeImage ni = new NodeImage();
        ni.setMetadata(new ObjectMetaBuilder().withName(node).withLabels(Map.of("pool", "general")).build());
        ni.setSpec(spec);
        ni.setStatus(status);
        return ni;
    }

    /** One image with {@code count} tags, each owned by its own job, finished with a TTL that has not passed. */
    private static NodeImage manyTags(String node, int count) {
        List<ImageTagSpec> tags = new ArrayList<>();
        List<ImageTagStatus> statuses = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            ImageTagSpec tag = tag("v" + t, 1, owner("job-" + t, "uid-" + t));
            ImageTagPullPolicy policy = new ImageTagPullPolicy();
            policy.setTtlSecondsAfterFinished(3600);
            tag.setPullPolicy(policy);
            tags.add(tag);
            statuses.add(tagStatus("v" + t, 1, "Succeeded"));
        }
        NodeImageSpec spec = new NodeImageSpec();
        spec.setImages(Map.of(IMAGE, image(tags)));
        NodeImageStatus status = new NodeImageStatus();
        status.setImageStatuses(Map.of(IMAGE, status(statuses)));
        NodeImage ni = new NodeImage();
        ni.setMetadata(new ObjectMetaBuilder().withName(node).withLabels(Map.of("pool", "general")).build());
        ni.setSpec(spec);
        ni.setStatus(status);
        return ni;
    }

    private static ImageSpec image(List<ImageTagSpec> tags) {
        ImageSpec image = new ImageSpec();
        image.setTags(tags);
        return image;
    }

    private static ImageTagSpec tag(String tag, long version, ObjectReference owner) {
        ImageTagSpec t = new ImageTagSpec();
        t.setTag(tag);
        t.setVersion(version);
        t.setCreatedAt(NOW_TEXT);
        t.setOwnerReferences(List.of(owner));
        return t;
    }

    private static ImageStatus status(List<ImageTagStatus> tags) {
        ImageStatus s = new ImageStatus();
        s.setTags(tags);
        return s;
    }

    private static ImageTagStatus tagStatus(String tag, long version, String phase) {
        ImageTagStatus t = new ImageTagStatus();
        t.setTag(tag);
        t.setVersion(version);
        t.setPhase(phase);
        if (!"Pulling".equals(phase)) {
            t.setCompletionTime(NOW_TEXT);
        }
        return t;
    }

    /** What the actuator edits: a copy of the NodeImage whose images map and image specs are its own. */
    private static NodeImage editableCopy(NodeImage ni) {
        NodeImage copy = new NodeImage();
        copy.setMetadata(ni.getMetadata());
        copy.setStatus(ni.getStatus());
        NodeImageSpec spec = new NodeImageSpec();
        Map<String, ImageSpec> images = new LinkedHashMap<>();
        for (Map.Entry<String, ImageSpec> e : ni.getSpec().images().entrySet()) {
            ImageSpec image = new ImageSpec();
            image.setTags(new ArrayList<>(e.getValue().tags()));
            image.setPullSecrets(e.getValue().getPullSecrets());
            image.setSandboxConfig(e.getValue().getSandboxConfig());
            images.put(e.getKey(), image);
        }
        spec.setImages(images);
        copy.setSpec(spec);
        return copy;
    }

    @Benchmark
    public List<NodeImage> targetsAllNodes() {
        return ImagePullJobTargets.of(allNodesJob.getSpec(), "default", nodeImages, List.of());
    }

    @Benchmark
    public List<NodeImage> targetsByNodeLabels() {
        return ImagePullJobTargets.of(labelJob.getSpec(), "default", nodeImages, List.of());
    }

    @Benchmark
    public List<NodeImage> targetsByPodSelector() {
        return ImagePullJobTargets.of(podJob.getSpec(), "default", nodeImages, pods);
    }

    @Benchmark
    public ImagePullJobPlan decideOverAllNodes() {
        return ImagePullJobDecision.decide(allNodesJob, List.copyOf(nodeImages.values()), NOW);
    }

    /** Targets, status and plan, then the tag injected into every node the plan names (a third of them). */
    @Benchmark
    public int reconcileAllNodes() {
        List<NodeImage> targets = ImagePullJobTargets.of(allNodesJob.getSpec(), "default", nodeImages, List.of());
        ImagePullJobPlan plan = ImagePullJobDecision.decide(allNodesJob, targets, NOW);
        int changed = 0;
        for (String node : plan.injectInto()) {
            if (NodeImageTags.inject(editableCopy(nodeImages.get(node)), allNodesJob, NOW_TEXT, 300, 0.5)) {
                changed++;
            }
        }
        return changed;
    }

    @Benchmark
    public NodeImagePlan nodeImageDecisionManyTags() {
        return NodeImageDecision.decide(bigNode, bigNodeImage, owners, NOW, Duration.ofSeconds(30));
    }
}
