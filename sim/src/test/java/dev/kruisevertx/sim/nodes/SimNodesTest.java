package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimNodesTest {
    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static ClusterFixture fixture;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        SimNodesOptions nodes = new SimNodesOptions()
                .addImageRule(new ImageRule("*:crash", Duration.ZERO, ContainerFailure.CRASH_LOOP))
                .addImageRule(new ImageRule("missing/*", Duration.ZERO, ContainerFailure.IMAGE_PULL_ERROR))
                .addImageRule(new ImageRule("slow/*", Duration.ofMillis(1500), ContainerFailure.NONE))
                .setCrashLoopInterval(Duration.ofMillis(300));
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(3).setNodeOptions(nodes));
        client = fixture.client();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    static PodBuilder pod(String name, String... images) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().endSpec();
        for (int i = 0; i < images.length; i++) {
            b.editSpec().addNewContainer().withName("c" + i).withImage(images[i]).endContainer().endSpec();
        }
        return b;
    }

    static Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    static String condition(Pod p, String type) {
        if (p == null || p.getStatus() == null || p.getStatus().getConditions() == null) {
            return null;
        }
        return p.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).map(PodCondition::getStatus).findFirst().orElse(null);
    }

    static Pod waitReady(String name) {
        return Await.waitFor("pod " + name + " Ready", TIMEOUT, () -> get(name), p -> "True".equals(condition(p, "Ready")));
    }

    @Test
    void nodesAreRegisteredWithLabelsCapacityAndLeases() {
        List<Node> nodes = client.nodes().list().getItems();
        assertEquals(3, nodes.size());
        assertEquals(List.of("zone-a", "zone-b", "zone-c"), nodes.stream().map(n -> n.getMetadata().getLabels().get("topology.kubernetes.io/zone")).sorted().toList());
        for (Node n : nodes) {
            assertEquals(n.getMetadata().getName(), n.getMetadata().getLabels().get("kubernetes.io/hostname"));
            assertEquals(new Quantity("8"), n.getStatus().getAllocatable().get("cpu"));
            assertTrue(n.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")));
            assertNotNull(client.leases().inNamespace("kube-node-lease").withName(n.getMetadata().getName()).get().getSpec().getRenewTime());
        }
    }

    @Test
    void podIsScheduledAndRuns() {
        client.pods().inNamespace("default").resource(pod("run", "nginx:1.25", "busybox:1").build()).create();
        Pod p = waitReady("run");
        assertEquals("Running", p.getStatus().getPhase());
        assertTrue(fixture.cluster().nodes().nodeNames().contains(p.getSpec().getNodeName()));
        assertEquals("True", condition(p, "PodScheduled"));
        assertNotNull(p.getStatus().getPodIP());
        ContainerStatus cs = p.getStatus().getContainerStatuses().get(0);
        assertTrue(cs.getContainerID().startsWith("containerd://"));
        assertEquals("nginx:1.25", cs.getImage());
        assertTrue(cs.getImageID().startsWith("docker.io/library/nginx@sha256:"), cs.getImageID());
        assertEquals(0, cs.getRestartCount());
        assertTrue(cs.getReady() && cs.getStarted());
        assertNotNull(cs.getState().getRunning().getStartedAt());
    }

    @Test
    void readinessGatesHoldReadyUntilTrue() {
        client.pods().inNamespace("default").resource(pod("gated", "nginx").editSpec().addNewReadinessGate()
                .withConditionType("example.com/in-service").endReadinessGate().endSpec().build()).create();
        Pod p = Await.waitFor("containers ready", TIMEOUT, () -> get("gated"), x -> "True".equals(condition(x, "ContainersReady")));
        assertEquals("False", condition(p, "Ready"));
        client.pods().inNamespace("default").withName("gated").subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                "{\"status\":{\"conditions\":[{\"type\":\"example.com/in-service\",\"status\":\"True\"}]}}");
        waitReady("gated");
    }

    @Test
    void inPlaceImageChangeRestartsOnlyThatContainer() {
        client.pods().inNamespace("default").resource(pod("inplace", "app:v1", "side:v1").build()).create();
        Pod before = waitReady("inplace");
        ContainerStatus app0 = before.getStatus().getContainerStatuses().get(0);
        ContainerStatus side0 = before.getStatus().getContainerStatuses().get(1);
        client.pods().inNamespace("default").withName("inplace").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                "{\"spec\":{\"containers\":[{\"name\":\"c0\",\"image\":\"app:v2\"}]}}");
        Pod after = Await.waitFor("c0 restarted with app:v2", TIMEOUT, () -> get("inplace"),
                p -> "app:v2".equals(p.getStatus().getContainerStatuses().get(0).getImage()) && "True".equals(condition(p, "Ready")));
        ContainerStatus app1 = after.getStatus().getContainerStatuses().get(0);
        ContainerStatus side1 = after.getStatus().getContainerStatuses().get(1);
        assertNotEquals(app0.getContainerID(), app1.getContainerID());
        assertNotEquals(app0.getImageID(), app1.getImageID());
        assertEquals(1, app1.getRestartCount());
        assertEquals(side0.getContainerID(), side1.getContainerID());
        assertEquals(0, side1.getRestartCount());
    }

    @Test
    void unschedulablePodsGetPodScheduledFalse() {
        client.pods().inNamespace("default").resource(pod("nofit", "nginx").editSpec().addToNodeSelector("disk", "ssd").endSpec().build()).create();
        client.pods().inNamespace("default").resource(pod("toobig", "nginx").editSpec().editFirstContainer().withNewResources()
                .addToRequests("cpu", new Quantity("100")).endResources().endContainer().endSpec().build()).create();
        Pod nofit = Await.waitFor("nofit unschedulable", TIMEOUT, () -> get("nofit"), p -> "False".equals(condition(p, "PodScheduled")));
        assertTrue(nofit.getStatus().getConditions().stream().anyMatch(c -> "Unschedulable".equals(c.getReason())
                && c.getMessage().contains("didn't match Pod's node affinity/selector")));
        Pod big = Await.waitFor("toobig unschedulable", TIMEOUT, () -> get("toobig"), p -> "False".equals(condition(p, "PodScheduled")));
        assertTrue(big.getStatus().getConditions().stream().anyMatch(c -> c.getMessage() != null && c.getMessage().contains("Insufficient cpu")));
        assertTrue(get("nofit").getSpec().getNodeName() == null);
    }

    @Test
    void affinityTaintsAndTolerations() {
        ConflictRetry.run(() -> client.nodes().withName("sim-node-1").edit(n -> new NodeBuilder(n).editSpec().addNewTaint().withKey("dedicated").withValue("x")
                .withEffect("NoSchedule").endTaint().endSpec().build()));
        try {
            String affinityToZoneB = "{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchExpressions\":"
                    + "[{\"key\":\"topology.kubernetes.io/zone\",\"operator\":\"In\",\"values\":[\"zone-b\"]}]}]}}";
            Pod intolerant = pod("zoneb-intolerant", "nginx").build();
            intolerant.getSpec().setAffinity(new io.fabric8.kubernetes.api.model.AffinityBuilder().withNodeAffinity(
                    io.fabric8.kubernetes.client.utils.Serialization.unmarshal(affinityToZoneB, io.fabric8.kubernetes.api.model.NodeAffinity.class)).build());
            client.pods().inNamespace("default").resource(intolerant).create();
            Pod tolerant = new PodBuilder(intolerant).editMetadata().withName("zoneb-tolerant").endMetadata().editSpec()
                    .addNewToleration().withKey("dedicated").withOperator("Equal").withValue("x").withEffect("NoSchedule").endToleration().endSpec().build();
            client.pods().inNamespace("default").resource(tolerant).create();
            Pod t = waitReady("zoneb-tolerant");
            assertEquals("sim-node-1", t.getSpec().getNodeName());
            Pod i = Await.waitFor("intolerant unschedulable", TIMEOUT, () -> get("zoneb-intolerant"), p -> "False".equals(condition(p, "PodScheduled")));
            assertTrue(i.getStatus().getConditions().stream().anyMatch(c -> c.getMessage() != null && c.getMessage().contains("untolerated taint")));
        } finally {
            ConflictRetry.run(() -> client.nodes().withName("sim-node-1").edit(n -> new NodeBuilder(n).editSpec().withTaints(List.of()).endSpec().build()));
        }
    }

    @Test
    void gracefulDeletionIsFinishedByTheKubelet() {
        client.pods().inNamespace("default").resource(pod("bye", "nginx").build()).create();
        waitReady("bye");
        client.pods().inNamespace("default").withName("bye").delete();
        Pod terminating = get("bye");
        assertTrue(terminating == null || terminating.getMetadata().getDeletionTimestamp() != null);
        Await.waitFor("pod removed after the scaled grace period", TIMEOUT, () -> get("bye") == null);
    }

    @Test
    void injectedFailuresAndDelays() {
        client.pods().inNamespace("default").resource(pod("crashy", "app:crash").build()).create();
        client.pods().inNamespace("default").resource(pod("nopull", "missing/app:1").build()).create();
        client.pods().inNamespace("default").resource(pod("slowpoke", "slow/app:1").build()).create();
        Pod slow = Await.waitFor("slowpoke bound", TIMEOUT, () -> get("slowpoke"), p -> p.getStatus().getContainerStatuses() != null
                && !p.getStatus().getContainerStatuses().isEmpty());
        assertFalse(slow.getStatus().getContainerStatuses().get(0).getReady(), "not ready during its start delay");
        waitReady("slowpoke");
        Pod crash = Await.waitFor("crashy restarting", TIMEOUT, () -> get("crashy"), p -> p.getStatus().getContainerStatuses() != null
                && !p.getStatus().getContainerStatuses().isEmpty() && p.getStatus().getContainerStatuses().get(0).getRestartCount() >= 2);
        assertEquals("CrashLoopBackOff", crash.getStatus().getContainerStatuses().get(0).getState().getWaiting().getReason());
        assertEquals("False", condition(crash, "Ready"));
        Pod pull = Await.waitFor("nopull back-off", TIMEOUT, () -> get("nopull"), p -> p.getStatus().getContainerStatuses() != null
                && !p.getStatus().getContainerStatuses().isEmpty() && p.getStatus().getContainerStatuses().get(0).getState().getWaiting() != null
                && "ImagePullBackOff".equals(p.getStatus().getContainerStatuses().get(0).getState().getWaiting().getReason()));
        assertEquals("Pending", pull.getStatus().getPhase());
    }
}
