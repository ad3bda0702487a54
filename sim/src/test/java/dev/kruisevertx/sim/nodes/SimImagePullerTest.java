package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagPullPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.apps.v1beta1.NodeImageSpec;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The simulated nodes' image puller: NodeImage tags go Pulling, then Succeeded or Failed, as kruise-daemon reports them. */
class SimImagePullerTest {
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static ClusterFixture fixture;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        SimNodesOptions nodes = new SimNodesOptions()
                .addImageRule(new ImageRule("*:missing", Duration.ZERO, ContainerFailure.IMAGE_PULL_ERROR))
                .addImageRule(new ImageRule("*:slow", Duration.ofSeconds(2), ContainerFailure.NONE));
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(2).setNodeOptions(nodes)
                .setCrdDirectory(ClusterFixture.findCrdDirectory())
                .setBuiltinControllers(false));
        client = fixture.client();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    static ImageTagSpec tag(String tag, long version) {
        ImageTagSpec t = new ImageTagSpec();
        t.setTag(tag);
        t.setVersion(version);
        t.setCreatedAt("2026-11-24T10:00:00Z");
        t.setPullPolicy(new ImageTagPullPolicy());
        t.getPullPolicy().setTtlSecondsAfterFinished(300);
        return t;
    }

    static ImageTagStatus status(String node, String image, String tag) {
        NodeImage ni = client.resources(NodeImage.class).withName(node).get();
        if (ni == null || ni.getStatus() == null || ni.getStatus().imageStatuses().get(image) == null) {
            return null;
        }
        return ni.getStatus().imageStatuses().get(image).tags().stream().filter(t -> tag.equals(t.getTag()))
                .findFirst().orElse(null);
    }

    @Test
    void tagsArePulledOrFailAndANewVersionPullsAgain() {
        String node = fixture.cluster().nodes().nodeNames().get(0);
        NodeImage ni = new NodeImage();
        ni.setMetadata(new ObjectMetaBuilder().withName(node).build());
        ni.setSpec(new NodeImageSpec());
        Map<String, ImageSpec> images = new LinkedHashMap<>();
        ImageSpec app = new ImageSpec();
        app.setTags(new ArrayList<>(List.of(tag("1", 0), tag("missing", 0), tag("slow", 0))));
        images.put("registry.local/app", app);
        ni.getSpec().setImages(images);
        client.resource(ni).create();

        Await.waitFor("slow pulling", TIMEOUT, () -> status(node, "registry.local/app", "slow"),
                t -> t != null && "Pulling".equals(t.getPhase()));
        ImageTagStatus ok = Await.waitFor("1 pulled", TIMEOUT, () -> status(node, "registry.local/app", "1"),
                t -> t != null && "Succeeded".equals(t.getPhase()));
        assertTrue(ok.getImageID() != null && ok.getCompletionTime() != null);
        assertTrue(fixture.cluster().nodes().images(node).contains("registry.local/app:1"));
        ImageTagStatus failed = Await.waitFor("missing failed", TIMEOUT,
                () -> status(node, "registry.local/app", "missing"), t -> t != null && "Failed".equals(t.getPhase()));
        assertEquals("rpc error: code = NotFound desc = failed to pull and unpack image \"registry.local/app:missing\": "
                + "not found", failed.getMessage());
        Await.waitFor("slow pulled", TIMEOUT, () -> status(node, "registry.local/app", "slow"),
                t -> t != null && "Succeeded".equals(t.getPhase()));
        NodeImage done = client.resources(NodeImage.class).withName(node).get();
        assertEquals(3, done.getStatus().getDesired());
        assertEquals(2, done.getStatus().getSucceeded());
        assertEquals(1, done.getStatus().getFailed());
        assertEquals(0, done.getStatus().getPulling());

        // A new version of a tag is a new pull; a removed tag loses its status.
        ConflictRetry.run(() -> client.resources(NodeImage.class).withName(node).edit(live -> {
            live.getSpec().getImages().get("registry.local/app").setTags(new ArrayList<>(List.of(tag("1", 1))));
            return live;
        }));
        Await.waitFor("1 pulled again at version 1", TIMEOUT, () -> status(node, "registry.local/app", "1"),
                t -> t != null && t.versionOrZero() == 1 && "Succeeded".equals(t.getPhase()));
        Await.waitFor("statuses of removed tags dropped", TIMEOUT, () -> status(node, "registry.local/app", "missing") == null);
    }

    static List<io.fabric8.kubernetes.api.model.Event> events(String namespace, String kind, String name, String reason) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> kind.equals(e.getInvolvedObject().getKind()) && name.equals(e.getInvolvedObject().getName())
                        && reason.equals(e.getReason())).toList();
    }

    @Test
    void finishedPullsAreRecordedAsKruiseDaemonsEvents() {
        String node = fixture.cluster().nodes().nodeNames().get(1);
        io.fabric8.kubernetes.api.model.ObjectReference owner = new io.fabric8.kubernetes.api.model.ObjectReferenceBuilder()
                .withApiVersion("apps.kruise.io/v1beta1").withKind("ImagePullJob").withNamespace("default")
                .withName("events-job").withUid("uid-events-job").build();
        ImageSpec app = new ImageSpec();
        ImageTagSpec ok = tag("1", 0);
        ImageTagSpec missing = tag("missing", 0);
        ok.setOwnerReferences(List.of(owner));
        missing.setOwnerReferences(List.of(owner));
        app.setTags(new ArrayList<>(List.of(ok, missing)));
        NodeImage ni = new NodeImage();
        ni.setMetadata(new ObjectMetaBuilder().withName(node).build());
        ni.setSpec(new NodeImageSpec());
        ni.getSpec().setImages(new LinkedHashMap<>(Map.of("registry.local/events", app)));
        client.resource(ni).create();

        io.fabric8.kubernetes.api.model.Event succeeded = Await.waitFor("PullImageSucceed on the NodeImage", TIMEOUT,
                () -> events("default", "NodeImage", node, "PullImageSucceed"), l -> !l.isEmpty()).get(0);
        assertEquals("Normal", succeeded.getType());
        assertTrue(succeeded.getMessage().matches("Image registry\\.local/events:1, ecalpsedTime [0-9.]+(ms|s)"),
                succeeded.getMessage());
        assertEquals("kruise-daemon-imagepuller", succeeded.getSource().getComponent());
        assertEquals(node, succeeded.getSource().getHost());
        String failure = "Image registry.local/events:missing rpc error: code = NotFound desc = failed to pull and "
                + "unpack image \"registry.local/events:missing\": not found";
        io.fabric8.kubernetes.api.model.Event onNode = Await.waitFor("PullImageFailed on the NodeImage", TIMEOUT,
                () -> events("default", "NodeImage", node, "PullImageFailed"), l -> !l.isEmpty()).get(0);
        assertEquals("Warning", onNode.getType());
        assertEquals(failure, onNode.getMessage());
        io.fabric8.kubernetes.api.model.Event onJob = Await.waitFor("PullImageFailed on the owner job", TIMEOUT,
                () -> events("default", "ImagePullJob", "events-job", "PullImageFailed"), l -> !l.isEmpty()).get(0);
        assertEquals(failure, onJob.getMessage());
        assertEquals("uid-events-job", onJob.getInvolvedObject().getUid());
        assertEquals(1, events("default", "NodeImage", node, "PullImageSucceed").size(), "one Event per finished pull");
        assertTrue(events("default", "ImagePullJob", "events-job", "PullImageSucceed").isEmpty(),
                "a success is recorded on the NodeImage only");
    }
}
