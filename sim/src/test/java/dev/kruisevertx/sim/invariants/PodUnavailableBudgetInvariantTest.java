package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The PodUnavailableBudget invariant fires when more of a budget's pods are made unavailable than it allows. */
class PodUnavailableBudgetInvariantTest {
    static final ObjectMapper MAPPER = new ObjectMapper();
    final InvariantChecker checker = new InvariantChecker().withPubInvariants();
    long t = 1;

    static ObjectNode budget(Object maxUnavailable, int totalReplicas) {
        ObjectNode b = MAPPER.createObjectNode().put("apiVersion", "policy.kruise.io/v1alpha1")
                .put("kind", "PodUnavailableBudget");
        b.putObject("metadata").put("name", "web-pub").put("namespace", "ns").put("uid", "pub-uid");
        ObjectNode spec = b.putObject("spec");
        if (maxUnavailable instanceof Integer i) {
            spec.put("maxUnavailable", i);
        } else {
            spec.put("maxUnavailable", maxUnavailable.toString());
        }
        b.putObject("status").put("totalReplicas", totalReplicas);
        return b;
    }

    /** A pod naming web-pub under {@code key}; Ready or not, terminating or not. */
    static ObjectNode pod(String name, String key, boolean ready, boolean terminating) {
        ObjectNode p = MAPPER.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = p.putObject("metadata").put("name", name).put("namespace", "ns").put("uid", name + "-uid");
        meta.putObject("annotations").put(key, "web-pub");
        if (terminating) {
            meta.put("deletionTimestamp", "2026-01-01T00:00:00Z");
        }
        ObjectNode status = p.putObject("status").put("phase", "Running");
        status.putArray("conditions").addObject().put("type", "Ready").put("status", ready ? "True" : "False");
        return p;
    }

    static ObjectNode pod(String name, boolean ready) {
        return pod(name, "kruise.io/related-pub", ready, false);
    }

    void pods(ObjectNode... pods) {
        for (ObjectNode p : pods) {
            checker.onPod(PodEvent.Type.MODIFIED, p, t++);
        }
    }

    List<String> violations() {
        return checker.violations().stream().map(v -> v.object() + ": " + v.message()).distinct().toList();
    }

    @Test
    void twoPodsMadeUnavailableBreakABudgetOfOne() {
        checker.onObject(PodEvent.Type.ADDED, budget(1, 4), 0);
        pods(pod("a", true), pod("b", true), pod("c", true), pod("d", true));
        pods(pod("a", false));
        assertEquals(List.of(), violations());
        // The other key of the annotation names the budget as well; terminating counts as unavailable.
        pods(pod("b", "pub.kruise.io/related-pub", true, true));
        assertEquals(List.of("ns/web-pub: 2 of its pods made unavailable, the budget allows 1 of 4 (a, b)"),
                violations());
    }

    @Test
    void newPodsTheRunsOwnDeletionsAndNoProtectPodsDoNotCount() {
        checker.onObject(PodEvent.Type.ADDED, budget(1, 4), 0);
        pods(pod("a", true), pod("b", true), pod("c", true));
        // A replacement never Ready yet is not a disruption.
        pods(pod("new-1", false), pod("new-2", false));
        checker.expectDeletion("ns", "a");
        pods(pod("a", "kruise.io/related-pub", true, true));
        ObjectNode exempt = pod("b", false);
        ((ObjectNode) exempt.path("metadata").path("annotations")).put("pub.kruise.io/no-protect", "true");
        pods(exempt, pod("c", false));
        assertEquals(List.of(), violations());
    }

    @Test
    void aPercentageIsOfTheTotalAndTheLabelMarksAPodUnavailable() {
        // 50% of 4 is 2: two disrupted pods are within, a third is not.
        checker.onObject(PodEvent.Type.ADDED, budget("50%", 4), 0);
        pods(pod("a", true), pod("b", true), pod("c", true), pod("d", true));
        ObjectNode labelled = pod("c", true);
        ((ObjectNode) labelled.path("metadata")).putObject("labels").put("unavailable-pod.kruise.io/drain", "true");
        pods(pod("a", false), pod("b", false));
        assertEquals(List.of(), violations());
        pods(labelled);
        assertEquals(List.of("ns/web-pub: 3 of its pods made unavailable, the budget allows 2 of 4 (a, b, c)"),
                violations());
    }

    @Test
    void podsOfAnotherBudgetOrNamespaceAreNotItsBusiness() {
        checker.onObject(PodEvent.Type.ADDED, budget(0, 2), 0);
        ObjectNode elsewhere = pod("x", true);
        ((ObjectNode) elsewhere.path("metadata")).put("namespace", "other");
        pods(elsewhere);
        ObjectNode down = pod("x", false);
        ((ObjectNode) down.path("metadata")).put("namespace", "other");
        pods(down);
        assertEquals(List.of(), violations());
    }
}
