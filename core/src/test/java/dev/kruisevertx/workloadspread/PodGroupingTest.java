package dev.kruisevertx.workloadspread;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubset;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.kruisevertx.workloadspread.Fixtures.ws;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the controller puts the workload's pods into subsets, adopting pods that carry no annotation yet. */
class PodGroupingTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static Node node(String name, String zone, Taint... taints) {
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(Map.of("zone", zone)).endMetadata()
                .withNewSpec().withTaints(taints).endSpec().build();
    }

    static final Map<String, Node> NODES = Map.of("na", node("na", "a"), "nb", node("nb", "b"),
            "nt", node("nt", "a", new Taint("NoSchedule", "dedicated", null, "x")));

    static WorkloadSpread zones() {
        WorkloadSpread ws = ws("CloneSet", "a:1", "b:2");
        for (WorkloadSpreadSubset s : ws.getSpec().getSubsets()) {
            s.setRequiredNodeSelectorTerm(new NodeSelectorTermBuilder().addNewMatchExpression().withKey("zone")
                    .withOperator("In").withValues(s.getName()).endMatchExpression().build());
        }
        return ws;
    }

    static Pod on(String name, String node) {
        Pod p = Fixtures.pod(name);
        p.getSpec().setNodeName(node);
        return p;
    }

    static Pod annotated(String name, String ws, String subset) {
        Pod p = Fixtures.pod(name);
        p.getMetadata().setAnnotations(Map.of(WorkloadSpreads.MATCHED_ANNOTATION,
                new MatchedWorkloadSpread(ws, subset, "").toAnnotationValue()));
        return p;
    }

    static PodGrouping.Result group(WorkloadSpread ws, Pod... pods) {
        return PodGrouping.group(ws, List.of(pods), PodVersions.defaults(), 3, NODES::get);
    }

    static List<String> names(List<Pod> pods) {
        return pods.stream().map(p -> p.getMetadata().getName()).toList();
    }

    @Test
    void annotatedPodsGoToTheirSubsetAndUnknownSubsetsToNone() {
        var r = group(zones(), annotated("p1", "ws", "a"), annotated("p2", "ws", "gone"), annotated("p3", "other", "a"));
        assertEquals(List.of("p1"), names(r.bySubset().get("a")));
        assertEquals(List.of("p2", "p3"), names(r.bySubset().get(WorkloadSpreads.FAKE_SUBSET_NAME)),
                "gone subset, other spread (not on a node, so not adopted)");
        assertEquals(List.of(), r.patches());
        assertEquals(Map.of(WorkloadSpreads.VERSION_IGNORED, r.bySubset()), r.versioned());
    }

    @Test
    void aPodOnANodeIsAdoptedByTheSubsetItsNodeFits() throws Exception {
        var r = group(zones(), on("p1", "nb"), on("p2", "missing-node"), Fixtures.pod("p3"));
        assertEquals(List.of("p1"), names(r.bySubset().get("b")));
        assertEquals(List.of("p2", "p3"), names(r.bySubset().get(WorkloadSpreads.FAKE_SUBSET_NAME)));
        assertEquals(1, r.patches().size());
        assertEquals(JSON.readTree("{\"metadata\":{\"annotations\":{\"apps.kruise.io/matched-workloadspread\":"
                + "\"{\\\"name\\\":\\\"ws\\\",\\\"subset\\\":\\\"b\\\"}\"}}}"), r.patches().get(0).patch());
    }

    @Test
    void aTaintNeitherThePodNorTheSubsetToleratesKeepsThePodOut() {
        var r = group(zones(), on("p1", "nt"));
        assertEquals(List.of("p1"), names(r.bySubset().get(WorkloadSpreads.FAKE_SUBSET_NAME)));
        WorkloadSpread tolerant = zones();
        tolerant.getSpec().getSubsets().get(0).setTolerations(List.of(new Toleration("NoSchedule", "dedicated",
                "Exists", null, null)));
        assertEquals(List.of("p1"), names(group(tolerant, on("p1", "nt")).bySubset().get("a")));
    }

    @Test
    void withoutRequiredTermsTheSubsetWithRoomWinsAndTheFirstWinsATie() {
        WorkloadSpread ws = ws("CloneSet", "a:1", "b:2");
        var r = group(ws, annotated("p0", "ws", "a"), on("p1", "na"), on("p2", "na"), on("p3", "na"));
        assertEquals(List.of("p1", "p2"), names(r.bySubset().get("b")), "a is full, b has room for two");
        assertEquals(List.of("p0", "p3"), names(r.bySubset().get("a")),
                "then every subset scores 0 and the first one wins");
    }

    @Test
    void preferredTermsOutweighRoomAndAnAppliedPatchCounts() throws Exception {
        WorkloadSpread ws = ws("CloneSet", "a:5", "b:5");
        ws.getSpec().getSubsets().get(1).setPreferredNodeSelectorTerms(List.of(new PreferredSchedulingTerm(
                new NodeSelectorTermBuilder().addNewMatchExpression().withKey("zone").withOperator("In")
                        .withValues("a").endMatchExpression().build(), 1)));
        assertEquals(List.of("p1"), names(group(ws, on("p1", "na")).bySubset().get("b")));

        WorkloadSpread patched = ws("CloneSet", "a:5", "b:5");
        patched.getSpec().getSubsets().get(1).setPatch(JSON.readTree("{\"metadata\":{\"labels\":{\"s\":\"b\"}}}"));
        Pod carrying = on("p1", "na");
        carrying.getMetadata().setLabels(Map.of("s", "b"));
        var r = group(patched, carrying);
        assertEquals(List.of("p1"), names(r.bySubset().get("b")));
        assertEquals(JSON.readTree("{\"labels\":{\"s\":\"b\"},\"annotations\":{\"apps.kruise.io/matched-workloadspread\":"
                + "\"{\\\"name\\\":\\\"ws\\\",\\\"subset\\\":\\\"b\\\"}\"}}"), r.patches().get(0).patch().get("metadata"));
        patched.getMetadata().setAnnotations(Map.of(WorkloadSpreads.IGNORE_PATCH_EXISTING_PODS_ANNOTATION, "True"));
        assertTrue(!group(patched, carrying).patches().get(0).patch().path("metadata").has("labels"));
    }

    @Test
    void versionsAreGroupedApartWithTheirOwnRoom() {
        WorkloadSpread ws = ws("Deployment", "a:1", "b");
        Pod v1 = Fixtures.pod("old", "ReplicaSet", Map.of("pod-template-hash", "v1"));
        v1.getSpec().setNodeName("na");
        Pod v2 = Fixtures.pod("new", "ReplicaSet", Map.of("pod-template-hash", "v2"));
        v2.getSpec().setNodeName("na");
        var r = PodGrouping.group(ws, List.of(v1, v2), PodVersions.defaults(), 3, NODES::get);
        assertEquals(List.of("old"), names(r.versioned().get("v1").get("a")));
        assertEquals(List.of("new"), names(r.versioned().get("v2").get("a")), "v2 has its own room in a");
        assertEquals(List.of("old", "new"), names(r.bySubset().get("a")));
    }
}
