package dev.kruisevertx.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubset;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.Toleration;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.kruisevertx.workloadspread.Fixtures.pod;
import static dev.kruisevertx.workloadspread.Fixtures.ws;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a pod admitted into a subset gets, as OpenKruise's injectWorkloadSpreadIntoPod writes it. */
class SubsetInjectionTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static NodeSelectorTerm zone(String... zones) {
        return new NodeSelectorTermBuilder().addNewMatchExpression().withKey("topology.kubernetes.io/zone")
                .withOperator("In").withValues(zones).endMatchExpression().build();
    }

    static WorkloadSpread spread(WorkloadSpreadSubset subset) {
        WorkloadSpread ws = ws("CloneSet", "other:1");
        ws.getSpec().getSubsets().add(subset);
        return ws;
    }

    static JsonNode json(String s) {
        try {
            return JSON.readTree(s);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void requiredTermBecomesThePodsOnlyTermAndTheAnnotationNamesSpreadAndSubset() {
        WorkloadSpreadSubset a = new WorkloadSpreadSubset("a", null);
        a.setRequiredNodeSelectorTerm(zone("zone-a"));
        Pod out = SubsetInjection.apply(spread(a), pod("p"), "a", "");
        assertEquals(List.of(zone("zone-a")), out.getSpec().getAffinity().getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms());
        assertEquals("{\"name\":\"ws\",\"subset\":\"a\"}",
                out.getMetadata().getAnnotations().get("apps.kruise.io/matched-workloadspread"));
    }

    @Test
    void requiredTermIsAddedToEachOfThePodsTerms() {
        WorkloadSpreadSubset a = new WorkloadSpreadSubset("a", null);
        NodeSelectorTerm subsetTerm = zone("zone-a");
        subsetTerm.setMatchFields(List.of(new NodeSelectorRequirement("metadata.name", "NotIn", List.of("n9"))));
        a.setRequiredNodeSelectorTerm(subsetTerm);
        Pod in = pod("p");
        in.getSpec().setAffinity(new io.fabric8.kubernetes.api.model.AffinityBuilder().withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm().addNewMatchExpression().withKey("disk").withOperator("In")
                .withValues("ssd").endMatchExpression().endNodeSelectorTerm()
                .addNewNodeSelectorTerm().addNewMatchExpression().withKey("gpu").withOperator("Exists")
                .endMatchExpression().endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().build());
        Pod out = SubsetInjection.apply(spread(a), in, "a", "");
        List<NodeSelectorTerm> terms = out.getSpec().getAffinity().getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms();
        assertEquals(2, terms.size());
        assertEquals(List.of("disk", "topology.kubernetes.io/zone"),
                terms.get(0).getMatchExpressions().stream().map(NodeSelectorRequirement::getKey).toList());
        assertEquals(List.of("gpu", "topology.kubernetes.io/zone"),
                terms.get(1).getMatchExpressions().stream().map(NodeSelectorRequirement::getKey).toList());
        assertEquals("metadata.name", terms.get(1).getMatchFields().get(0).getKey());
        assertEquals(1, in.getSpec().getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms().get(0).getMatchExpressions().size(), "the input pod is not changed");
    }

    @Test
    void tolerationsAndPreferredTermsAreAppended() {
        WorkloadSpreadSubset a = new WorkloadSpreadSubset("a", null);
        a.setTolerations(List.of(new Toleration("NoSchedule", "ecs", "Exists", null, null)));
        a.setPreferredNodeSelectorTerms(List.of(new PreferredSchedulingTerm(zone("zone-a"), 10)));
        Pod in = pod("p");
        in.getSpec().setTolerations(List.of(new Toleration(null, "own", "Exists", null, null)));
        Pod out = SubsetInjection.apply(spread(a), in, "a", "");
        assertEquals(List.of("own", "ecs"), out.getSpec().getTolerations().stream().map(Toleration::getKey).toList());
        assertEquals(10, out.getSpec().getAffinity().getNodeAffinity()
                .getPreferredDuringSchedulingIgnoredDuringExecution().get(0).getWeight());
        assertNull(out.getSpec().getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution());
    }

    @Test
    void aSubsetWithoutNodeTermsStillLeavesAnEmptyNodeAffinityAsOpenKruiseDoes() {
        Pod out = SubsetInjection.apply(spread(new WorkloadSpreadSubset("a", null)), pod("p"), "a", "");
        JsonNode affinity = ApiJson.serialization().convertValue(out, JsonNode.class).path("spec").path("affinity");
        assertEquals(json("{\"nodeAffinity\":{}}"), affinity);
    }

    @Test
    void thePatchIsAStrategicMergeOfMetadataAndContainers() {
        WorkloadSpreadSubset a = new WorkloadSpreadSubset("a", null);
        a.setPatch(json("{\"metadata\":{\"labels\":{\"subset\":\"a\"},\"annotations\":{\"k\":\"v\"}},"
                + "\"spec\":{\"containers\":[{\"name\":\"main\",\"resources\":{\"limits\":{\"cpu\":\"2\"}}}]}}"));
        Pod in = pod("p", "CloneSet", Map.of("app", "x"));
        in.getSpec().setContainers(List.of(new io.fabric8.kubernetes.api.model.ContainerBuilder().withName("main")
                .withImage("img").build(), new io.fabric8.kubernetes.api.model.ContainerBuilder().withName("side")
                .withImage("s").build()));
        Pod out = SubsetInjection.apply(spread(a), in, "a", "");
        assertEquals(Map.of("app", "x", "subset", "a"), out.getMetadata().getLabels());
        assertEquals("v", out.getMetadata().getAnnotations().get("k"));
        assertEquals(2, out.getSpec().getContainers().size());
        assertEquals("img", out.getSpec().getContainers().get(0).getImage());
        assertEquals("2", out.getSpec().getContainers().get(0).getResources().getLimits().get("cpu").toString());
        assertNotNull(out.getMetadata().getAnnotations().get(WorkloadSpreads.MATCHED_ANNOTATION));
    }

    @Test
    void aPatchChangingThePriorityClassDropsTheResolvedPriority() {
        WorkloadSpreadSubset a = new WorkloadSpreadSubset("a", null);
        a.setPatch(json("{\"spec\":{\"priorityClassName\":\"high\"}}"));
        Pod in = pod("p");
        in.getSpec().setPriorityClassName("low");
        in.getSpec().setPriority(100);
        Pod out = SubsetInjection.apply(spread(a), in, "a", "");
        assertEquals("high", out.getSpec().getPriorityClassName());
        assertNull(out.getSpec().getPriority());

        WorkloadSpreadSubset b = new WorkloadSpreadSubset("b", null);
        b.setPatch(json("{\"metadata\":{\"labels\":{\"x\":\"y\"}}}"));
        assertEquals(100, SubsetInjection.apply(spread(b), in, "b", "").getSpec().getPriority());
    }

    @Test
    void theGeneratedIdGoesIntoTheAnnotation() {
        Pod out = SubsetInjection.apply(spread(new WorkloadSpreadSubset("a", null)), pod(null), "a", "u-1");
        assertEquals("{\"name\":\"ws\",\"subset\":\"a\",\"uid\":\"u-1\"}",
                out.getMetadata().getAnnotations().get(WorkloadSpreads.MATCHED_ANNOTATION));
        assertEquals(new MatchedWorkloadSpread("ws", "a", "u-1"), MatchedWorkloadSpread.of(out).orElseThrow());
    }

    @Test
    void anUnknownSubsetLeavesThePodAlone() {
        Pod out = SubsetInjection.apply(spread(new WorkloadSpreadSubset("a", null)), pod("p"), "zz", "");
        assertNull(out.getSpec().getAffinity());
        assertTrue(out.getMetadata().getAnnotations() == null || out.getMetadata().getAnnotations().isEmpty());
    }

    @Test
    void aPatchThatIsNotAnObjectOrBreaksThePodIsRefused() {
        WorkloadSpreadSubset a = new WorkloadSpreadSubset("a", null);
        a.setPatch(json("[1]"));
        assertThrows(IllegalArgumentException.class, () -> SubsetInjection.apply(spread(a), pod("p"), "a", ""));
        a.setPatch(json("{\"spec\":{\"containers\":\"nope\"}}"));
        assertThrows(IllegalArgumentException.class, () -> SubsetInjection.apply(spread(a), pod("p"), "a", ""));
    }

    @Test
    void annotationValuesOpenKruiseCannotReadMatchNothing() {
        assertTrue(MatchedWorkloadSpread.parse("not json").isEmpty());
        assertTrue(MatchedWorkloadSpread.parse("null").isEmpty());
        assertTrue(MatchedWorkloadSpread.parse("{\"name\":1}").isEmpty());
        assertTrue(MatchedWorkloadSpread.parse("").isEmpty());
        MatchedWorkloadSpread m = MatchedWorkloadSpread.parse("{\"name\":\"ws\",\"extra\":true}").orElseThrow();
        assertEquals("", m.subset());
        assertTrue(!m.matches("ws"), "no subset: not matched");
        assertTrue(new MatchedWorkloadSpread("ws", "a", "").matches("ws"));
    }
}
