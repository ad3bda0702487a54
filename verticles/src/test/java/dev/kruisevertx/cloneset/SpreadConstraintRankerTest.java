package dev.kruisevertx.cloneset;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The scale-down ranks, on the cluster OpenKruise's own ranker test uses: nine nodes, a (no labels), b-d in zone
 * z1, e-g in z2, h-i in z3; pods a x2, b x2, c x3, d x5, e x5, f x3, i x5 (so z1 holds 10 pods, z2 8, z3 5).
 * Pods are equal for the plain order, so ties keep their listing order.
 */
class SpreadConstraintRankerTest {
    static final String ZONE = "failure-domain.beta.kubernetes.io/zone";
    static final String HOST = "kubernetes.io/hostname";

    static final Map<String, Map<String, String>> NODES = nodes();

    static Map<String, Map<String, String>> nodes() {
        Map<String, Map<String, String>> nodes = new HashMap<>();
        nodes.put("a", Map.of());
        String[][] zoned = {{"b", "z1"}, {"c", "z1"}, {"d", "z1"}, {"e", "z2"}, {"f", "z2"}, {"g", "z2"}, {"h", "z3"},
                {"i", "z3"}};
        for (String[] n : zoned) {
            nodes.put(n[0], Map.of(HOST, n[0], ZONE, n[1]));
        }
        return nodes;
    }

    static List<Pod> pods() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("a", 2);
        counts.put("b", 2);
        counts.put("c", 3);
        counts.put("d", 5);
        counts.put("e", 5);
        counts.put("f", 3);
        counts.put("i", 5);
        List<Pod> pods = new ArrayList<>();
        counts.forEach((node, n) -> {
            for (int i = 0; i < n; i++) {
                pods.add(new PodBuilder().withNewMetadata().withName(node + "-" + i).endMetadata()
                        .withNewSpec().withNodeName(node).endSpec().build());
            }
        });
        return pods;
    }

    /** Ranked pods (rank above 0), highest first; equal ranks keep the listing order. */
    static List<String> rankedOrder(List<Pod> pods, ToDoubleFunction<Pod> rank) {
        List<Pod> ranked = new ArrayList<>();
        for (Pod p : pods) {
            if (rank.applyAsDouble(p) > 0) {
                ranked.add(p);
            }
        }
        ranked.sort(Comparator.comparingDouble(rank).reversed());
        return ranked.stream().map(p -> p.getMetadata().getName()).toList();
    }

    record Case(String name, List<String> keys, List<String> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("zone", List.of(ZONE), List.of(
                        "d-0",
                        "d-1",
                        "c-0", "e-0",
                        "d-2", "e-1",
                        "b-0", "e-2",
                        "c-1", "f-0", "i-0",
                        "d-3", "e-3", "i-1",
                        "b-1", "f-1", "i-2",
                        "c-2", "e-4", "i-3",
                        "d-4", "f-2", "i-4")),
                new Case("zone, then host", List.of(ZONE, HOST), List.of(
                        "d-0", "e-0",
                        "d-1", "e-1",
                        "c-0", "i-0",
                        "d-2", "e-2",
                        "i-1", "f-0",
                        "b-0", "c-1",
                        "i-2", "d-3",
                        "e-3", "f-1",
                        "i-3", "b-1",
                        "c-2", "e-4",
                        "d-4", "f-2", "i-4")),
                new Case("a key no node has ranks nothing", List.of("topology.example.com/rack"), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void ranksLikeOpenKruise(Case tc) {
        List<Pod> pods = pods();
        assertEquals(tc.expected(), rankedOrder(pods, SpreadConstraintRanker.rank(pods, tc.keys(), NODES::get)));
    }

    @Test
    void unknownNodesAndUnscheduledPodsGetNoRank() {
        List<Pod> pods = new ArrayList<>(pods());
        pods.add(new PodBuilder().withNewMetadata().withName("pending").endMetadata().withNewSpec().endSpec().build());
        pods.add(new PodBuilder().withNewMetadata().withName("gone-0").endMetadata()
                .withNewSpec().withNodeName("gone").endSpec().build());
        ToDoubleFunction<Pod> rank = SpreadConstraintRanker.rank(pods, List.of(ZONE), NODES::get);
        assertEquals(0.0, rank.applyAsDouble(pods.get(pods.size() - 2)));
        assertEquals(0.0, rank.applyAsDouble(pods.get(pods.size() - 1)));
        // Node a has no zone label: its pods are not ranked either.
        assertEquals(0.0, rank.applyAsDouble(pods.get(0)));
    }

    @Test
    void sameNodeRanksAllButTheKeeperOfEachNode() {
        // node a: p0, p4, p10; node b: p3, p6; node c: p5; node d: p7, p8, p9; p1, p2 unscheduled.
        String[] nodeOf = {"a", null, null, "b", "a", "c", "b", "d", "d", "d", "a"};
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < nodeOf.length; i++) {
            pods.add(new PodBuilder().withNewMetadata().withName("p" + i).endMetadata()
                    .withNewSpec().withNodeName(nodeOf[i]).endSpec().build());
        }
        ToDoubleFunction<Pod> rank = PodDeletionOrder.sameNodeRank(pods);
        Map<String, Double> got = new HashMap<>();
        for (Pod p : pods) {
            if (rank.applyAsDouble(p) != 0) {
                got.put(p.getMetadata().getName(), rank.applyAsDouble(p));
            }
        }
        assertEquals(Map.of("p0", 2.0, "p4", 1.0, "p3", 1.0, "p7", 2.0, "p8", 1.0), got);
    }

    @Test
    void topologyKeysComeFromTheTemplate() {
        assertEquals(List.of(), SpreadConstraintRanker.topologyKeys(new PodTemplateSpecBuilder().withNewSpec()
                .endSpec().build()));
        assertEquals(List.of(ZONE, HOST), SpreadConstraintRanker.topologyKeys(new PodTemplateSpecBuilder().withNewSpec()
                .addToTopologySpreadConstraints(new TopologySpreadConstraintBuilder().withTopologyKey(ZONE).withMaxSkew(1)
                        .withWhenUnsatisfiable("DoNotSchedule").build())
                .addToTopologySpreadConstraints(new TopologySpreadConstraintBuilder().withTopologyKey(HOST).withMaxSkew(1)
                        .withWhenUnsatisfiable("ScheduleAnyway").build())
                .endSpec().build()));
    }

    @Test
    void deletionOrderUsesTheSpreadRankOnlyWithConstraints() {
        // Two ready pods in zone z1 (nodes b, c) and one in z3 (node i); the z3 pod is the newest, so the plain
        // order and the same-node rank (every node holds one pod) would delete it first.
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        List<Pod> pods = List.of(ready("b-0", "b", t0), ready("c-0", "c", t0.plusSeconds(1)),
                ready("i-0", "i", t0.plusSeconds(5)));
        Instant now = t0.plusSeconds(3600);
        assertEquals("i-0", PodDeletionOrder.forPods(pods, 0, now).first(pods, 1).get(0).getMetadata().getName());
        // With a zone constraint the crowded zone gives a pod first: its newer pod, c-0.
        assertEquals("c-0", PodDeletionOrder.forPods(pods, 0, now, List.of(ZONE), NODES::get).first(pods, 1).get(0)
                .getMetadata().getName());
        // Deletion cost still comes before the spread rank.
        List<Pod> costed = List.of(pods.get(0), pods.get(1), new PodBuilder(pods.get(2)).editMetadata()
                .addToAnnotations("controller.kubernetes.io/pod-deletion-cost", "-1").endMetadata().build());
        assertEquals("i-0", PodDeletionOrder.forPods(costed, 0, now, List.of(ZONE), NODES::get).first(costed, 1).get(0)
                .getMetadata().getName());
    }

    static Pod ready(String name, String node, Instant created) {
        return new PodBuilder().withNewMetadata().withName(name).withCreationTimestamp(created.toString()).endMetadata()
                .withNewSpec().withNodeName(node).endSpec()
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True")
                .withLastTransitionTime(created.toString()).endCondition().endStatus().build();
    }
}
