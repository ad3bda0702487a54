package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.kruisevertx.workloadspread.Fixtures.ws;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pod-deletion-cost values OpenKruise's WorkloadSpread controller writes, subset by subset. */
class DeletionCostTest {
    /** A running, ready, scheduled pod created at minute {@code minute}. */
    static Pod running(String name, int minute) {
        Pod p = Fixtures.pod(name);
        p.getMetadata().setCreationTimestamp(String.format("2026-01-01T00:%02d:00Z", minute));
        p.getSpec().setNodeName("n1");
        p.setStatus(new io.fabric8.kubernetes.api.model.PodStatus());
        p.getStatus().setPhase("Running");
        p.getStatus().setConditions(new ArrayList<>(List.of(new PodConditionBuilder().withType("Ready")
                .withStatus("True").withLastTransitionTime(String.format("2026-01-01T00:%02d:30Z", minute)).build())));
        return p;
    }

    static Pod pending(String name) {
        Pod p = Fixtures.pod(name);
        p.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z");
        p.setStatus(new io.fabric8.kubernetes.api.model.PodStatus());
        p.getStatus().setPhase("Pending");
        return p;
    }

    static Pod withCost(Pod p, String cost) {
        p.getMetadata().setAnnotations(Map.of(dev.kruisevertx.api.common.WellKnown.POD_DELETION_COST_ANNOTATION, cost));
        return p;
    }

    record Case(String name, WorkloadSpread ws, Map<String, List<Pod>> pods, int replicas, boolean reverse,
                Map<String, String> expect) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Map<String, List<Pod>> bySubset(Object... nameThenPods) {
        Map<String, List<Pod>> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenPods.length; i += 2) {
            @SuppressWarnings("unchecked")
            List<Pod> pods = (List<Pod>) nameThenPods[i + 1];
            m.put((String) nameThenPods[i], pods);
        }
        return m;
    }

    static Stream<Case> cases() {
        WorkloadSpread three = ws("CloneSet", "a:2", "b:1", "c");
        return Stream.of(
                new Case("within limits: 100 x subsets after, plus one", three,
                        bySubset("a", List.of(running("a1", 1), running("a2", 2)), "b", List.of(running("b1", 1)),
                                "c", List.of(running("c1", 1), running("c2", 2), running("c3", 3))), 6, false,
                        Map.of("a1", "300", "a2", "300", "b1", "200", "c1", "100", "c2", "100", "c3", "100")),
                new Case("surplus over the limit goes first at -100 x position: the newest", three,
                        bySubset("a", List.of(running("a1", 1), running("a2", 2), running("a3", 3))), 6, false,
                        Map.of("a1", "300", "a2", "300", "a3", "-100")),
                new Case("surplus: unscheduled before scheduled", three,
                        bySubset("b", List.of(running("b1", 5), pending("b2"))), 6, false,
                        Map.of("b1", "200", "b2", "-200")),
                new Case("surplus: not ready before ready", three,
                        bySubset("b", List.of(running("b1", 1), notReady(running("b2", 0)))), 6, false,
                        Map.of("b1", "200", "b2", "-200")),
                new Case("surplus: more restarts first", three,
                        bySubset("b", List.of(running("b1", 1), restarted(running("b2", 1), 3))), 6, false,
                        Map.of("b1", "200", "b2", "-200")),
                new Case("pods in no subset get -100 x (subsets + 1)", three,
                        bySubset(WorkloadSpreads.FAKE_SUBSET_NAME, List.of(running("x1", 1))), 6, false,
                        Map.of("x1", "-400")),
                new Case("old version: the subset order is reversed", three,
                        bySubset("a", List.of(running("a1", 1), running("a2", 2), running("a3", 3)),
                                "c", List.of(running("c1", 1))), 6, true,
                        Map.of("a1", "100", "a2", "100", "a3", "-300", "c1", "300")),
                new Case("percentage limit is scaled on the replicas, rounded up", ws("CloneSet", "a:50%", "b"),
                        bySubset("a", List.of(running("a1", 1), running("a2", 2), running("a3", 3))), 3, false,
                        Map.of("a1", "200", "a2", "200", "a3", "-100")),
                new Case("an unreadable limit skips the subset", ws("CloneSet", "a:abc", "b"),
                        bySubset("a", List.of(running("a1", 1)), "b", List.of(running("b1", 1))), 3, false,
                        Map.of("b1", "100")),
                new Case("inactive pods get nothing", ws("CloneSet", "a:2", "b"),
                        bySubset("a", List.of(succeeded(running("a1", 1)), running("a2", 2))), 3, false,
                        Map.of("a2", "200")),
                new Case("a pod already carrying its value is not rewritten", ws("CloneSet", "a:2", "b"),
                        bySubset("a", List.of(withCost(running("a1", 1), "200"), withCost(running("a2", 1), "5"))),
                        3, false, Map.of("a2", "200")),
                new Case("limit 0: every pod is surplus", ws("CloneSet", "a:0", "b"),
                        bySubset("a", List.of(running("a1", 1))), 3, false, Map.of("a1", "-100")));
    }

    static Pod notReady(Pod p) {
        p.getStatus().getConditions().get(0).setStatus("False");
        return p;
    }

    static Pod restarted(Pod p, int restarts) {
        p.getStatus().setContainerStatuses(List.of(new ContainerStatusBuilder().withName("c")
                .withRestartCount(restarts).build()));
        return p;
    }

    static Pod succeeded(Pod p) {
        p.getStatus().setPhase("Succeeded");
        return p;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void costs(Case c) {
        Map<String, String> got = new LinkedHashMap<>();
        for (DeletionCost.Assignment a : DeletionCost.plan(c.ws(), c.pods(), c.replicas(), c.reverse())) {
            got.put(a.pod().getMetadata().getName(), a.value());
        }
        assertEquals(c.expect(), got);
    }

    @Test
    void onlyCloneSetDeploymentAndReplicaSetTargets() {
        assertTrue(DeletionCost.appliesTo(new TargetReference("apps.kruise.io/v1alpha1", "CloneSet", "x")));
        assertTrue(DeletionCost.appliesTo(new TargetReference("apps/v1", "Deployment", "x")));
        assertTrue(DeletionCost.appliesTo(new TargetReference("apps/v1", "ReplicaSet", "x")));
        assertFalse(DeletionCost.appliesTo(new TargetReference("apps/v1", "StatefulSet", "x")));
        assertFalse(DeletionCost.appliesTo(new TargetReference("batch/v1", "Job", "x")));
        assertFalse(DeletionCost.appliesTo(null));
    }
}
