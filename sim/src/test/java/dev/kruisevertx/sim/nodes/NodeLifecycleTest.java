package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Nodes that change at run time: NoExecute taints, NotReady and unreachable nodes, removal. */
class NodeLifecycleTest {
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static ClusterFixture fixture;
    static KubernetesClient client;
    static SimNodes sim;

    @BeforeAll
    static void start() {
        // Heartbeats every 500 ms: an unreachable node is judged Unknown after 2 s (40 s × 0.05).
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(1)
                .setNodeOptions(new SimNodesOptions().setHeartbeatInterval(Duration.ofMillis(500))));
        client = fixture.client();
        sim = fixture.cluster().nodes();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    static Pod pinned(String name, String node, Toleration... tolerations) {
        Pod p = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withNewSpec().withNodeSelector(Map.of("kubernetes.io/hostname", node)).withTolerations(tolerations)
                .addNewContainer().withName("c").withImage("nginx:1").endContainer().endSpec().build();
        client.pods().inNamespace("default").resource(p).create();
        return Await.waitFor("pod " + name + " Running", TIMEOUT, () -> client.pods().inNamespace("default").withName(name).get(),
                x -> x != null && "Running".equals(x.getStatus().getPhase()));
    }

    static Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    static void addNode(String name) {
        sim.addNode(name, Map.of());
        Await.waitFor("node " + name + " Ready", TIMEOUT, () -> NodeFit.isReady(client.nodes().withName(name).get()));
    }

    static Set<String> taints(String node) {
        Node n = client.nodes().withName(node).get();
        List<Taint> taints = n.getSpec().getTaints() == null ? List.of() : n.getSpec().getTaints();
        return taints.stream().map(t -> t.getKey() + ":" + t.getEffect()).collect(Collectors.toSet());
    }

    static String ready(String node) {
        NodeCondition c = client.nodes().withName(node).get().getStatus().getConditions().stream()
                .filter(x -> "Ready".equals(x.getType())).findFirst().orElseThrow();
        return c.getStatus();
    }

    @Test
    void podsGetTheDefaultNoExecuteTolerations() {
        addNode("defaults-0");
        Pod p = pinned("defaulted", "defaults-0");
        List<Toleration> tolerations = p.getSpec().getTolerations();
        for (String key : List.of("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable")) {
            assertTrue(tolerations.stream().anyMatch(t -> key.equals(t.getKey()) && "Exists".equals(t.getOperator())
                    && "NoExecute".equals(t.getEffect()) && Long.valueOf(300).equals(t.getTolerationSeconds())), key + " in " + tolerations);
        }
    }

    @Test
    void noExecuteTaintEvictsPodsThatDoNotTolerateIt() {
        addNode("taint-0");
        pinned("intolerant", "taint-0");
        pinned("tolerant", "taint-0", new io.fabric8.kubernetes.api.model.TolerationBuilder().withKey("maintenance")
                .withOperator("Exists").withEffect("NoExecute").build());
        sim.setNodeTaints("taint-0", List.of(new TaintBuilder().withKey("maintenance").withValue("yes").withEffect("NoExecute").build()));
        Await.waitFor("intolerant pod evicted", TIMEOUT, () -> get("intolerant"),
                p -> p == null || p.getMetadata().getDeletionTimestamp() != null);
        Await.waitFor("intolerant pod gone", TIMEOUT, () -> get("intolerant") == null);
        Pod tolerant = get("tolerant");
        assertNotNull(tolerant);
        assertNull(tolerant.getMetadata().getDeletionTimestamp());
        // A new pod without the toleration is not scheduled there either.
        sim.setNodeTaints("taint-0", List.of());
        Await.waitFor("taint removed", TIMEOUT, () -> taints("taint-0").isEmpty());
    }

    @Test
    void notReadyNodeGetsLifecycleTaintsAndLosesItsPodsAfterTolerationSeconds() {
        addNode("sick-0");
        // Tolerates not-ready for 20 s, which the time scale (0.05) makes 1 s.
        pinned("short", "sick-0", new io.fabric8.kubernetes.api.model.TolerationBuilder().withKey("node.kubernetes.io/not-ready")
                .withOperator("Exists").withEffect("NoExecute").withTolerationSeconds(20L).build());
        pinned("forever", "sick-0", new io.fabric8.kubernetes.api.model.TolerationBuilder().withKey("node.kubernetes.io/not-ready")
                .withOperator("Exists").withEffect("NoExecute").build());
        sim.setNodeHealth("sick-0", NodeHealth.NOT_READY);
        Await.waitFor("Ready=False", TIMEOUT, () -> ready("sick-0"), "False"::equals);
        Await.waitFor("not-ready taints", TIMEOUT, () -> taints("sick-0"),
                t -> t.equals(Set.of("node.kubernetes.io/not-ready:NoSchedule", "node.kubernetes.io/not-ready:NoExecute")));
        Await.waitFor("pod tolerating 20 s (scaled) evicted", TIMEOUT, () -> get("short"),
                p -> p == null || p.getMetadata().getDeletionTimestamp() != null);
        assertNull(get("forever").getMetadata().getDeletionTimestamp());
        sim.setNodeHealth("sick-0", NodeHealth.READY);
        Await.waitFor("Ready=True", TIMEOUT, () -> ready("sick-0"), "True"::equals);
        Await.waitFor("lifecycle taints removed", TIMEOUT, () -> taints("sick-0"), Set::isEmpty);
    }

    @Test
    void unreachableNodeTurnsUnknownWithUnreachableTaints() {
        addNode("lost-0");
        pinned("stranded", "lost-0");
        sim.setNodeHealth("lost-0", NodeHealth.UNREACHABLE);
        Await.waitFor("Ready=Unknown", TIMEOUT, () -> ready("lost-0"), "Unknown"::equals);
        Await.waitFor("unreachable taints", TIMEOUT, () -> taints("lost-0"),
                t -> t.equals(Set.of("node.kubernetes.io/unreachable:NoSchedule", "node.kubernetes.io/unreachable:NoExecute")));
        Pod p = Await.waitFor("pod marked not ready", TIMEOUT, () -> get("stranded"), x -> "False".equals(SchedulerTest.condition(x, "Ready").getStatus()));
        assertNull(p.getMetadata().getDeletionTimestamp(), "the default toleration (300 s, 15 s scaled) still holds");
        sim.setNodeHealth("lost-0", NodeHealth.READY);
        Await.waitFor("Ready=True again", TIMEOUT, () -> ready("lost-0"), "True"::equals);
        Await.waitFor("taints removed", TIMEOUT, () -> taints("lost-0"), Set::isEmpty);
        Await.waitFor("pod Ready again", TIMEOUT, () -> get("stranded"), x -> "True".equals(SchedulerTest.condition(x, "Ready").getStatus()));
    }

    @Test
    void removedNodeTakesItsPodsAway() {
        addNode("gone-0");
        pinned("orphan", "gone-0");
        sim.removeNode("gone-0");
        Await.waitFor("node deleted", TIMEOUT, () -> client.nodes().withName("gone-0").get() == null);
        Await.waitFor("orphan pod deleted", TIMEOUT, () -> get("orphan") == null);
        assertEquals(List.of("sim-node-0"), sim.nodeNames().stream().filter(n -> n.startsWith("sim-node")).toList());
    }

    static java.net.http.HttpResponse<String> call(String method, String path, String body) throws Exception {
        java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(java.net.URI.create(fixture.cluster().url() + path))
                .header("Content-Type", "application/json");
        b.method(method, body == null ? java.net.http.HttpRequest.BodyPublishers.noBody() : java.net.http.HttpRequest.BodyPublishers.ofString(body));
        return java.net.http.HttpClient.newHttpClient().send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void nodesChangeThroughTheHttpEndpointOfTheRunningCluster() throws Exception {
        assertEquals(201, call("POST", "/sim/nodes", "{\"name\": \"http-0\", \"labels\": {\"pool\": \"http\"}}").statusCode());
        Await.waitFor("node http-0 Ready", TIMEOUT, () -> client.nodes().withName("http-0").get() != null
                && NodeFit.isReady(client.nodes().withName("http-0").get()));
        assertEquals("http", client.nodes().withName("http-0").get().getMetadata().getLabels().get("pool"));
        assertTrue(call("GET", "/sim/nodes", null).body().contains("{\"name\":\"http-0\",\"health\":\"Ready\"}"));
        assertEquals(200, call("PUT", "/sim/nodes/http-0/labels", "{\"pool\": null, \"tier\": \"gold\"}").statusCode());
        Await.waitFor("labels changed", TIMEOUT, () -> client.nodes().withName("http-0").get().getMetadata().getLabels(),
                l -> "gold".equals(l.get("tier")) && !l.containsKey("pool"));
        assertEquals(200, call("PUT", "/sim/nodes/http-0/taints", "[{\"key\": \"k\", \"value\": \"v\", \"effect\": \"NoSchedule\"}]").statusCode());
        Await.waitFor("tainted", TIMEOUT, () -> taints("http-0"), t -> t.equals(Set.of("k:NoSchedule")));
        assertEquals(200, call("PUT", "/sim/nodes/http-0/health", "{\"health\": \"NotReady\"}").statusCode());
        Await.waitFor("not-ready taints", TIMEOUT, () -> taints("http-0"), t -> t.contains("node.kubernetes.io/not-ready:NoExecute"));
        var bad = call("PUT", "/sim/nodes/http-0/health", "{\"health\": \"Sleepy\"}");
        assertEquals(400, bad.statusCode());
        assertTrue(bad.body().contains("health must be Ready, NotReady or Unreachable"), bad.body());
        assertEquals(404, call("DELETE", "/sim/nodes/nope", null).statusCode());
        assertEquals(200, call("DELETE", "/sim/nodes/http-0", null).statusCode());
        Await.waitFor("node deleted", TIMEOUT, () -> client.nodes().withName("http-0").get() == null);
    }
}
