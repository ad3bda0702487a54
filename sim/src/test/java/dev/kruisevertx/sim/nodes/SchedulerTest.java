package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The simulated scheduler end to end: pod (anti-)affinity, topology spread, preferred node affinity, matchFields,
 * unschedulable messages, and nodes added at run time. Each test adds its own pool of nodes (and removes them after),
 * and its pods select that pool, so the tests do not see each other's load.
 */
class SchedulerTest {
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static ClusterFixture fixture;
    static KubernetesClient client;
    static SimNodes sim;
    final List<String> added = new ArrayList<>();

    @BeforeAll
    static void start() {
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(3));
        client = fixture.client();
        sim = fixture.cluster().nodes();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @AfterEach
    void removeNodes() {
        client.pods().inNamespace("default").withGracePeriod(0).delete();
        for (String n : added) {
            sim.removeNode(n);
        }
        Await.waitFor("test pods gone", TIMEOUT, () -> client.pods().inNamespace("default").list().getItems().isEmpty());
    }

    /** Adds {@code count} nodes labelled {@code pool=<pool>}, zones as given (or the defaults). */
    void pool(String pool, int count, String... zones) {
        for (int i = 0; i < count; i++) {
            Map<String, String> labels = new TreeMap<>(Map.of("pool", pool));
            if (zones.length > 0) {
                labels.put("topology.kubernetes.io/zone", zones[i]);
            }
            sim.addNode(pool + "-" + i, labels);
            added.add(pool + "-" + i);
        }
        for (int i = 0; i < count; i++) {
            String name = pool + "-" + i;
            Await.waitFor("node " + name + " Ready", TIMEOUT, () -> NodeFit.isReady(client.nodes().withName(name).get()));
        }
    }

    static PodBuilder pod(String name, String pool) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withNewSpec().withNodeSelector(Map.of("pool", pool))
                .addNewContainer().withName("c").withImage("nginx:1").endContainer().endSpec();
    }

    /** Pods that stay on {@code node} whatever else they ask: node affinity matchFields on metadata.name. */
    static void fillers(String node, int count) {
        for (int i = 0; i < count; i++) {
            Pod p = new PodBuilder().withNewMetadata().withName("filler-" + node + "-" + i).withNamespace("default")
                    .addToLabels("role", "filler").endMetadata()
                    .withNewSpec().withNewAffinity().withNewNodeAffinity().withNewRequiredDuringSchedulingIgnoredDuringExecution()
                    .addNewNodeSelectorTerm().addNewMatchField().withKey("metadata.name").withOperator("In").withValues(node)
                    .endMatchField().endNodeSelectorTerm().endRequiredDuringSchedulingIgnoredDuringExecution()
                    .endNodeAffinity().endAffinity()
                    .addNewContainer().withName("c").withImage("nginx:1").endContainer().endSpec().build();
            create(p);
            assertEquals(node, nodeOf(p.getMetadata().getName()), "matchFields metadata.name pins the pod");
        }
    }

    static void create(Pod p) {
        client.pods().inNamespace("default").resource(p).create();
    }

    static String nodeOf(String pod) {
        return Await.waitFor("pod " + pod + " bound", TIMEOUT, () -> client.pods().inNamespace("default").withName(pod).get(),
                p -> p != null && p.getSpec().getNodeName() != null).getSpec().getNodeName();
    }

    static String zoneOf(String node) {
        return client.nodes().withName(node).get().getMetadata().getLabels().get("topology.kubernetes.io/zone");
    }

    @Test
    void requiredAntiAffinityKeepsTwoPodsApart() {
        pool("anti", 3);
        // The emptiest node is anti-0, so without anti-affinity both pods would land there.
        fillers("anti-1", 2);
        fillers("anti-2", 2);
        for (String name : List.of("a", "b")) {
            create(pod(name, "anti").editMetadata().addToLabels("app", "anti").endMetadata()
                    .editSpec().withNewAffinity().withNewPodAntiAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
                    .withNewLabelSelector().addToMatchLabels("app", "anti").endLabelSelector()
                    .withTopologyKey("kubernetes.io/hostname").endRequiredDuringSchedulingIgnoredDuringExecution()
                    .endPodAntiAffinity().endAffinity().endSpec().build());
            nodeOf(name);
        }
        assertEquals("anti-0", nodeOf("a"));
        assertNotEquals(nodeOf("a"), nodeOf("b"));
    }

    @Test
    void requiredPodAffinityCoLocates() {
        pool("aff", 3);
        create(pod("leader", "aff").editMetadata().addToLabels("app", "db").endMetadata().build());
        String leaderNode = nodeOf("leader");
        // Without affinity the follower would go to an emptier node.
        create(pod("follower", "aff").editSpec().withNewAffinity().withNewPodAffinity()
                .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withNewLabelSelector().addToMatchLabels("app", "db").endLabelSelector()
                .withNamespaces("default").withTopologyKey("kubernetes.io/hostname")
                .endRequiredDuringSchedulingIgnoredDuringExecution().endPodAffinity().endAffinity().endSpec().build());
        assertEquals(leaderNode, nodeOf("follower"));
    }

    @Test
    void topologySpreadSpreadsSixPodsOverThreeZones() {
        // Three nodes in zone x: spreading by node alone would put four of six pods there.
        pool("spread", 5, "x", "x", "x", "y", "z");
        for (int i = 0; i < 6; i++) {
            create(pod("s" + i, "spread").editMetadata().addToLabels("app", "spread").endMetadata()
                    .editSpec().addNewTopologySpreadConstraint().withMaxSkew(1).withTopologyKey("topology.kubernetes.io/zone")
                    .withWhenUnsatisfiable("DoNotSchedule").withNewLabelSelector().addToMatchLabels("app", "spread").endLabelSelector()
                    .endTopologySpreadConstraint().endSpec().build());
        }
        Map<String, Integer> perZone = new TreeMap<>();
        for (int i = 0; i < 6; i++) {
            perZone.merge(zoneOf(nodeOf("s" + i)), 1, Integer::sum);
        }
        assertEquals(Map.of("x", 2, "y", 2, "z", 2), perZone);
    }

    @Test
    void preferredNodeAffinityChoosesTheHeavierTerm() {
        pool("pref", 3);
        sim.setNodeLabels("pref-0", Map.of("disk", "ssd"));
        sim.setNodeLabels("pref-1", Map.of("gpu", "yes"));
        fillers("pref-1", 2);
        Await.waitFor("labels seen", TIMEOUT, () -> "yes".equals(client.nodes().withName("pref-1").get().getMetadata().getLabels().get("gpu")));
        create(pod("p", "pref").editSpec().withNewAffinity().withNewNodeAffinity()
                .addNewPreferredDuringSchedulingIgnoredDuringExecution().withWeight(10).withNewPreference()
                .addNewMatchExpression().withKey("disk").withOperator("In").withValues("ssd").endMatchExpression().endPreference()
                .endPreferredDuringSchedulingIgnoredDuringExecution()
                .addNewPreferredDuringSchedulingIgnoredDuringExecution().withWeight(80).withNewPreference()
                .addNewMatchExpression().withKey("gpu").withOperator("Exists").endMatchExpression().endPreference()
                .endPreferredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity().endAffinity().endSpec().build());
        assertEquals("pref-1", nodeOf("p"));
    }

    @Test
    void matchFieldsOnMetadataNamePinsAPod() {
        pool("pin", 3);
        fillers("pin-2", 3);
        assertEquals(3, client.pods().inNamespace("default").list().getItems().stream()
                .filter(p -> "pin-2".equals(p.getSpec().getNodeName())).count());
    }

    @Test
    void unschedulablePodGetsTheSchedulersMessage() {
        pool("msg", 2);
        fillers("msg-0", 1);
        sim.setNodeTaints("msg-1", List.of(new TaintBuilder().withKey("dedicated").withValue("x").withEffect("NoSchedule").build()));
        Await.waitFor("taint seen", TIMEOUT, () -> client.nodes().withName("msg-1").get().getSpec().getTaints() != null);
        create(pod("lonely", "msg").editSpec().withNewAffinity().withNewPodAntiAffinity()
                .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withNewLabelSelector().addToMatchLabels("role", "filler").endLabelSelector()
                .withTopologyKey("kubernetes.io/hostname").endRequiredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity().endAffinity().endSpec().build());
        int others = client.nodes().list().getItems().size() - 2;
        String expected = "0/" + (others + 2) + " nodes are available: 1 node(s) didn't match pod anti-affinity rules, "
                + "1 node(s) had untolerated taint {dedicated: x}, " + others + " node(s) didn't match Pod's node affinity/selector.";
        PodCondition scheduled = Await.waitFor("PodScheduled=False", TIMEOUT,
                () -> condition(client.pods().inNamespace("default").withName("lonely").get(), "PodScheduled"),
                c -> c != null && "False".equals(c.getStatus()) && expected.equals(c.getMessage()));
        assertEquals("Unschedulable", scheduled.getReason());
    }

    @Test
    void nodeAddedAtRunTimeReceivesPods() {
        create(pod("waiting", "late").build());
        Await.waitFor("pending pod marked unschedulable", TIMEOUT,
                () -> condition(client.pods().inNamespace("default").withName("waiting").get(), "PodScheduled"),
                c -> c != null && "False".equals(c.getStatus()));
        pool("late", 1);
        assertEquals("late-0", nodeOf("waiting"));
        Await.waitFor("pod running on the new node", TIMEOUT, () -> client.pods().inNamespace("default").withName("waiting").get(),
                p -> "Running".equals(p.getStatus().getPhase()));
    }

    static PodCondition condition(Pod p, String type) {
        if (p == null || p.getStatus() == null || p.getStatus().getConditions() == null) {
            return null;
        }
        return p.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    static List<Node> nodes() {
        return client.nodes().list().getItems();
    }
}
