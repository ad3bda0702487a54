package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The SidecarSet invariant fires when more upgraded pods are unavailable than maxUnavailable, and only then. */
class SidecarSetInvariantTest {
    static final ObjectMapper MAPPER = new ObjectMapper();
    final InvariantChecker checker = new InvariantChecker().withSidecarSetInvariants();

    static ObjectNode set(Object maxUnavailable) {
        ObjectNode s = MAPPER.createObjectNode().put("apiVersion", "apps.kruise.io/v1beta1").put("kind", "SidecarSet");
        s.putObject("metadata").put("name", "log").put("uid", "log-uid").putObject("annotations")
                .put("kruise.io/sidecarset-hash", "new");
        ObjectNode spec = s.putObject("spec");
        spec.putArray("containers").addObject().put("name", "log").put("image", "log:2");
        ObjectNode strategy = spec.putObject("updateStrategy").put("type", "RollingUpdate");
        if (maxUnavailable instanceof Integer i) {
            strategy.put("maxUnavailable", i);
        } else if (maxUnavailable != null) {
            strategy.put("maxUnavailable", maxUnavailable.toString());
        }
        return s;
    }

    /** A pod injected by "log" recording {@code hash}; its sidecar runs {@code running}; ready or not. */
    static ObjectNode pod(String name, String hash, String running, boolean ready) {
        ObjectNode p = MAPPER.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = p.putObject("metadata").put("name", name).put("namespace", "ns").put("uid", name + "-uid");
        meta.putObject("annotations").put("kruise.io/sidecarset-injected-list", "log")
                .put("kruise.io/sidecarset-hash", "{\"log\":{\"hash\":\"" + hash + "\"}}");
        p.putObject("spec").putArray("containers").addObject().put("name", "log")
                .put("image", hash.equals("new") ? "log:2" : "log:1");
        ObjectNode status = p.putObject("status").put("phase", "Running");
        status.putArray("conditions").addObject().put("type", "Ready").put("status", ready ? "True" : "False");
        status.putArray("containerStatuses").addObject().put("name", "log").put("image", running).put("ready", ready);
        return p;
    }

    List<String> run(Object maxUnavailable, ObjectNode... pods) {
        checker.onObject(PodEvent.Type.ADDED, set(maxUnavailable), 0);
        long t = 1;
        for (ObjectNode p : pods) {
            checker.onPod(PodEvent.Type.ADDED, p, t++);
        }
        return checker.violations().stream().map(Violation::toString).toList();
    }

    @Test
    void twoUpgradedPodsUnavailableBreakMaxUnavailableOne() {
        assertEquals(List.of("sidecarset-max-unavailable log: 2 upgraded pods unavailable, maxUnavailable allows 1"
                + " (a, b)"), run(null, pod("a", "new", "log:2", false), pod("b", "new", "log:1", true),
                pod("c", "old", "log:1", true)).stream().distinct().toList());
    }

    @Test
    void oldPodsAndAvailableUpgradedPodsDoNotCount() {
        assertEquals(List.of(), run(1, pod("a", "new", "log:2", false), pod("b", "new", "log:2", true),
                pod("c", "old", "log:1", false)));
    }

    @Test
    void aPercentageIsOfTheSidecarSetsPodsRoundedUp() {
        // 50% of 4 pods is 2 (the old pods arrive first: the budget is of the pods seen so far).
        assertEquals(List.of(), run("50%", pod("c", "old", "log:1", true), pod("d", "old", "log:1", true),
                pod("a", "new", "log:2", false), pod("b", "new", "log:1", true)));
        // Six pods: 50% is 3; a fourth unavailable pod breaks it.
        assertEquals(List.of("sidecarset-max-unavailable log: 4 upgraded pods unavailable, maxUnavailable allows 3"
                + " (a, b, e, f)"), run("50%", pod("e", "new", "log:2", false), pod("f", "new", "log:2", false)));
    }
}
