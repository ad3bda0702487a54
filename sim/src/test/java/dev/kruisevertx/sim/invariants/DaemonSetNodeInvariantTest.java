package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.kruisevertx.sim.invariants.InvariantCheckerTest.MAPPER;
import static dev.kruisevertx.sim.invariants.InvariantCheckerTest.T0;
import static dev.kruisevertx.sim.invariants.InvariantCheckerTest.pod;
import static dev.kruisevertx.sim.invariants.InvariantCheckerTest.terminating;
import static dev.kruisevertx.sim.invariants.InvariantCheckerTest.unready;
import static dev.kruisevertx.sim.invariants.PodEvent.Type.ADDED;
import static dev.kruisevertx.sim.invariants.PodEvent.Type.DELETED;
import static dev.kruisevertx.sim.invariants.PodEvent.Type.MODIFIED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Advanced DaemonSet's per-node invariant fires on crafted bad pod sequences and stays quiet on good ones. */
class DaemonSetNodeInvariantTest {
    final InvariantChecker checker = InvariantChecker.withWorkloadInvariants();

    static ObjectNode daemonSet(int desired, String maxUnavailable, String maxSurge) {
        ObjectNode w = MAPPER.createObjectNode().put("apiVersion", "apps.kruise.io/v1beta1").put("kind", "DaemonSet");
        w.putObject("metadata").put("name", "ds").put("namespace", "ns").put("uid", "ds-uid").put("generation", 1);
        ObjectNode spec = w.putObject("spec");
        spec.putObject("selector").putObject("matchLabels").put("app", "ds");
        ObjectNode ru = spec.putObject("updateStrategy").put("type", "RollingUpdate").putObject("rollingUpdate");
        if (maxUnavailable != null) {
            ru.put("maxUnavailable", maxUnavailable);
        }
        if (maxSurge != null) {
            ru.put("maxSurge", maxSurge);
        }
        w.putObject("status").put("observedGeneration", 1).put("desiredNumberScheduled", desired)
                .put("updateRevision", "r1");
        return w;
    }

    /** A daemon pod pinned to {@code node} as the controller creates them (matchFields metadata.name). */
    static ObjectNode daemonPod(String name, String node, String revision, boolean ready) {
        ObjectNode p = pod(name, "ds", "ds-uid", revision, ready);
        ((ObjectNode) p.get("spec")).putObject("affinity").putObject("nodeAffinity")
                .putObject("requiredDuringSchedulingIgnoredDuringExecution").putArray("nodeSelectorTerms").addObject()
                .putArray("matchFields").addObject().put("key", "metadata.name").put("operator", "In")
                .putArray("values").add(node);
        return p;
    }

    List<Violation> violations() {
        checker.settle(T0 + 60_000, true);
        return checker.violations().stream().filter(v -> v.invariant().equals("daemonset-per-node")).toList();
    }

    void threeNodesServed(String maxUnavailable, String maxSurge) {
        checker.onWorkload(WorkloadKind.ADVANCED_DAEMONSET, ADDED, daemonSet(3, maxUnavailable, maxSurge), T0);
        for (int i = 0; i < 3; i++) {
            checker.onPod(ADDED, daemonPod("ds-" + i, "node-" + i, "r1", true), T0);
        }
    }

    @Test
    void twoPodsOnANodeWithoutSurgeFire() {
        threeNodesServed("1", null);
        checker.onPod(ADDED, daemonPod("ds-extra", "node-1", "r1", false), T0 + 1);
        List<Violation> v = violations();
        assertEquals(1, v.size(), v.toString());
        assertTrue(v.get(0).message().contains("more than 1 active pod on a node (maxSurge 0): node-1 (ds-1, ds-extra)"),
                v.get(0).message());
    }

    @Test
    void aSurgePodNextToTheOldOneIsFineAThirdIsNot() {
        threeNodesServed("0", "1");
        checker.onPod(ADDED, daemonPod("ds-new", "node-1", "r2", false), T0 + 1);
        assertEquals(List.of(), violations());
        checker.onPod(ADDED, daemonPod("ds-third", "node-1", "r2", false), T0 + 2);
        assertEquals(1, violations().size());
    }

    @Test
    void aTerminatingOldPodNextToItsReplacementDoesNotCount() {
        threeNodesServed("1", null);
        checker.onPod(MODIFIED, terminating(daemonPod("ds-1", "node-1", "r1", true)), T0 + 1);
        checker.onPod(ADDED, daemonPod("ds-1b", "node-1", "r2", false), T0 + 2);
        assertEquals(List.of(), violations());
    }

    @Test
    void twoNodesWithoutAnAvailablePodBreakABudgetOfOne() {
        threeNodesServed("1", null);
        checker.onPod(DELETED, daemonPod("ds-0", "node-0", "r1", true), T0 + 1);
        assertEquals(List.of(), violations(), "one node down is within maxUnavailable 1");
        checker.onPod(MODIFIED, unready(daemonPod("ds-2", "node-2", "r1", true)), T0 + 2);
        List<Violation> v = violations();
        assertEquals(1, v.size(), v.toString());
        assertTrue(v.get(0).message().startsWith("2 of 3 nodes without an available pod, maxUnavailable allows 1 "
                + "(node-0, node-2)"), v.get(0).message());
    }

    @Test
    void aPercentageBudgetIsOfTheDesiredNodes() {
        threeNodesServed("50%", null);
        checker.onPod(DELETED, daemonPod("ds-0", "node-0", "r1", true), T0 + 1);
        checker.onPod(DELETED, daemonPod("ds-1", "node-1", "r1", true), T0 + 2);
        assertEquals(List.of(), violations(), "50% of 3 nodes rounds up to 2");
    }

    @Test
    void aNewNodeRearmsInsteadOfFiring() {
        threeNodesServed("1", null);
        checker.onWorkload(WorkloadKind.ADVANCED_DAEMONSET, MODIFIED, daemonSet(4, "1", null), T0 + 1);
        checker.onPod(DELETED, daemonPod("ds-0", "node-0", "r1", true), T0 + 2);
        checker.onPod(DELETED, daemonPod("ds-1", "node-1", "r1", true), T0 + 3);
        assertEquals(List.of(), violations(), "not armed until all 4 desired nodes were served");
    }

    @Test
    void theReplicaInvariantsLeaveDaemonSetsAlone() {
        threeNodesServed("1", null);
        checker.onPod(DELETED, daemonPod("ds-0", "node-0", "r1", true), T0 + 1);
        checker.settle(T0 + 60_000, true);
        assertEquals(0L, checker.violationCounts().get("max-unavailable"));
        assertEquals(0L, checker.violationCounts().get("max-surge"));
    }
}
