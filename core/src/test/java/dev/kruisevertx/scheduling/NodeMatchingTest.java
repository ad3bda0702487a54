package dev.kruisevertx.scheduling;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NodeMatchingTest {

    private static Node node(String name, Map<String, String> labels, Taint... taints) {
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .withNewSpec().withTaints(taints).endSpec().build();
    }

    private static PodSpec requiring(NodeSelectorRequirement expr, NodeSelectorRequirement field) {
        NodeSelectorTerm term = new NodeSelectorTerm(expr == null ? null : List.of(expr), field == null ? null : List.of(field));
        return new PodSpecBuilder().withNewAffinity().withNewNodeAffinity().withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withNodeSelectorTerms(term).endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity().build();
    }

    @ParameterizedTest(name = "{0} {1} {2} on zone={3} -> {4}")
    @CsvSource({
            "zone, In, a|b, a, true",
            "zone, In, a|b, c, false",
            "zone, NotIn, a, b, true",
            "zone, NotIn, a, a, false",
            "zone, Exists, '', a, true",
            "other, Exists, '', a, false",
            "other, DoesNotExist, '', a, true",
            "zone, DoesNotExist, '', a, false",
            "zone, Gt, 3, 5, true",
            "zone, Gt, 3, 2, false",
            "zone, Lt, 3, 2, true",
            "zone, Gt, 3, x, false",
            "zone, Bogus, a, a, false",
    })
    void expressionOperators(String key, String op, String values, String zone, boolean fits) {
        List<String> vs = values.isEmpty() ? List.of() : List.of(values.split("\\|"));
        PodSpec spec = requiring(new NodeSelectorRequirement(key, op, vs), null);
        assertEquals(fits, NodeMatching.matchesNodeSelectorAndAffinity(spec, node("n1", Map.of("zone", zone))));
    }

    @Test
    void matchFieldsPinsOneNodeByName() {
        PodSpec spec = requiring(null, new NodeSelectorRequirement("metadata.name", "In", List.of("n1")));
        assertTrue(NodeMatching.matchesNodeSelectorAndAffinity(spec, node("n1", Map.of())));
        assertFalse(NodeMatching.matchesNodeSelectorAndAffinity(spec, node("n2", Map.of())));
    }

    @Test
    void emptyTermMatchesNothingAndNoAffinityMatchesEverything() {
        assertFalse(NodeMatching.matchesNodeSelectorAndAffinity(requiring(null, null), node("n1", Map.of())));
        assertTrue(NodeMatching.matchesNodeSelectorAndAffinity(new PodSpec(), node("n1", Map.of())));
    }

    @Test
    void nodeSelectorNeedsEveryLabel() {
        PodSpec spec = new PodSpecBuilder().withNodeSelector(Map.of("a", "1", "b", "2")).build();
        assertTrue(NodeMatching.matchesNodeSelectorAndAffinity(spec, node("n", Map.of("a", "1", "b", "2", "c", "3"))));
        assertFalse(NodeMatching.matchesNodeSelectorAndAffinity(spec, node("n", Map.of("a", "1"))));
    }

    @Test
    void tolerationsByKeyValueEffectAndWildcard() {
        Taint gpu = new Taint("NoSchedule", "gpu", null, "true");
        assertTrue(NodeMatching.tolerates(List.of(new Toleration("NoSchedule", "gpu", "Equal", null, "true")), gpu));
        assertFalse(NodeMatching.tolerates(List.of(new Toleration("NoSchedule", "gpu", "Equal", null, "false")), gpu));
        assertFalse(NodeMatching.tolerates(List.of(new Toleration("NoExecute", "gpu", "Exists", null, null)), gpu));
        assertTrue(NodeMatching.tolerates(List.of(new Toleration(null, "gpu", "Exists", null, null)), gpu));
        assertTrue(NodeMatching.tolerates(List.of(new Toleration(null, null, "Exists", null, null)), gpu));
        assertFalse(NodeMatching.tolerates(null, gpu));
    }

    @Test
    void onlyHardTaintsBlockAndPreferNoScheduleIsCounted() {
        Node n = node("n", Map.of(), new Taint("PreferNoSchedule", "soft", null, null), new Taint("NoExecute", "hard", null, null));
        assertEquals("hard", NodeMatching.untoleratedTaint(new PodSpec(), n).orElseThrow().getKey());
        assertEquals(1, NodeMatching.untoleratedPreferNoSchedule(new PodSpec(), n));
        PodSpec tolerant = new PodSpecBuilder().withTolerations(new Toleration(null, "hard", "Exists", null, null)).build();
        assertTrue(NodeMatching.untoleratedTaint(tolerant, n).isEmpty());
    }
}
