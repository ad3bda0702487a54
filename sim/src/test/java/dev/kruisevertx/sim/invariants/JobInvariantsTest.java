package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The BroadcastJob and AdvancedCronJob invariants fire on a crafted bad sequence and stay quiet on the good one. */
class JobInvariantsTest {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final long T0 = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();
    final InvariantChecker checker = new InvariantChecker().withJobInvariants();

    static ObjectNode node(String name, String zone, boolean tainted) {
        ObjectNode n = MAPPER.createObjectNode().put("apiVersion", "v1").put("kind", "Node");
        n.putObject("metadata").put("name", name).put("uid", name + "-uid").putObject("labels").put("zone", zone);
        ObjectNode spec = n.putObject("spec");
        if (tainted) {
            spec.putArray("taints").addObject().put("key", "dedicated").put("value", "db").put("effect", "NoSchedule");
        }
        return n;
    }

    static ObjectNode bcj(Object parallelism) {
        ObjectNode j = MAPPER.createObjectNode().put("apiVersion", "apps.kruise.io/v1beta1").put("kind", "BroadcastJob");
        j.putObject("metadata").put("name", "bcj").put("namespace", "ns").put("uid", "bcj-uid");
        ObjectNode spec = j.putObject("spec");
        if (parallelism instanceof Integer i) {
            spec.put("parallelism", i);
        } else if (parallelism != null) {
            spec.put("parallelism", parallelism.toString());
        }
        j.putObject("status").put("desired", 3);
        return j;
    }

    /** A pod of the job pinned to {@code node} by the scheduler's node affinity, as the controller makes it. */
    static ObjectNode bcjPod(String name, String node, String phase, String zoneSelector) {
        ObjectNode p = MAPPER.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = p.putObject("metadata").put("name", name).put("namespace", "ns").put("uid", name + "-uid");
        meta.putArray("ownerReferences").addObject().put("apiVersion", "apps.kruise.io/v1beta1")
                .put("kind", "BroadcastJob").put("name", "bcj").put("uid", "bcj-uid").put("controller", true);
        ObjectNode spec = p.putObject("spec");
        spec.putArray("containers").addObject().put("name", "c").put("image", "busybox");
        if (zoneSelector != null) {
            spec.putObject("nodeSelector").put("zone", zoneSelector);
        }
        ObjectNode term = spec.putObject("affinity").putObject("nodeAffinity")
                .putObject("requiredDuringSchedulingIgnoredDuringExecution").putArray("nodeSelectorTerms").addObject();
        term.putArray("matchFields").addObject().put("key", "metadata.name").put("operator", "In")
                .putArray("values").add(node);
        p.putObject("status").put("phase", phase);
        return p;
    }

    void nodes(ObjectNode... nodes) {
        for (ObjectNode n : nodes) {
            checker.onObject(PodEvent.Type.ADDED, n, T0);
        }
    }

    List<String> fired() {
        checker.settle(T0 + 600_000, true);
        return checker.violations().stream().map(Violation::invariant).toList();
    }

    @Test
    void aSecondPodOnANodeFires() {
        nodes(node("n1", "a", false), node("n2", "a", false));
        checker.onObject(PodEvent.Type.ADDED, bcj(null), T0);
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p1", "n1", "Succeeded", null), T0 + 10_000);
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p2", "n2", "Running", null), T0 + 10_000);
        assertEquals(List.of(), fired());
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p3", "n1", "Running", null), T0 + 11_000);
        assertEquals(List.of(BroadcastJobInvariant.ONE_POD_PER_NODE), fired());
    }

    @Test
    void aPodOnANodeAfterTheFirstIsGoneIsFine() {
        nodes(node("n1", "a", false));
        checker.onObject(PodEvent.Type.ADDED, bcj(null), T0);
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p1", "n1", "Running", null), T0 + 10_000);
        checker.onPod(PodEvent.Type.DELETED, bcjPod("p1", "n1", "Running", null), T0 + 11_000);
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p2", "n1", "Running", null), T0 + 12_000);
        assertEquals(List.of(), fired());
    }

    @Test
    void moreActivePodsThanParallelismFires() {
        nodes(node("n1", "a", false), node("n2", "a", false), node("n3", "a", false));
        checker.onObject(PodEvent.Type.ADDED, bcj(2), T0);
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p1", "n1", "Running", null), T0 + 10_000);
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p2", "n2", "Pending", null), T0 + 10_000);
        checker.onPod(PodEvent.Type.MODIFIED, bcjPod("p1", "n1", "Succeeded", null), T0 + 11_000);
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p3", "n3", "Pending", null), T0 + 12_000);
        assertEquals(List.of(), fired(), "one finished before the third started");
        checker.onPod(PodEvent.Type.MODIFIED, bcjPod("p1", "n1", "Running", null), T0 + 13_000);
        assertEquals(List.of(BroadcastJobInvariant.PARALLELISM), fired());
    }

    @Test
    void aPercentageParallelismIsOfTheDesiredNodes() {
        nodes(node("n1", "a", false), node("n2", "a", false), node("n3", "a", false));
        checker.onObject(PodEvent.Type.ADDED, bcj("34%"), T0); // of 3: 1.02, rounded up to 2
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p1", "n1", "Running", null), T0 + 10_000);
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p2", "n2", "Running", null), T0 + 10_000);
        assertEquals(List.of(), fired());
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p3", "n3", "Running", null), T0 + 10_000);
        assertEquals(List.of(BroadcastJobInvariant.PARALLELISM), fired());
    }

    @Test
    void aPodOnANodeItsTemplateDoesNotFitFires() {
        nodes(node("n1", "a", false), node("n2", "b", false), node("n3", "a", true));
        checker.onObject(PodEvent.Type.ADDED, bcj(null), T0);
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p1", "n1", "Running", "a"), T0 + 10_000);
        assertEquals(List.of(), fired());
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p2", "n2", "Running", "a"), T0 + 10_000);
        assertEquals(List.of(BroadcastJobInvariant.NODE_FIT), fired(), "selector");
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p3", "n3", "Running", "a"), T0 + 10_000);
        assertEquals(List.of(BroadcastJobInvariant.NODE_FIT, BroadcastJobInvariant.NODE_FIT), fired(), "taint");
    }

    @Test
    void aNodeThatJustChangedIsNotJudged() {
        nodes(node("n1", "a", false));
        checker.onObject(PodEvent.Type.MODIFIED, node("n1", "b", false), T0 + 9_000);
        checker.onPod(PodEvent.Type.ADDED, bcjPod("p1", "n1", "Running", "a"), T0 + 10_000);
        assertEquals(List.of(), fired());
    }

    static ObjectNode acj(String policy) {
        ObjectNode a = MAPPER.createObjectNode().put("apiVersion", "apps.kruise.io/v1beta1").put("kind", "AdvancedCronJob");
        a.putObject("metadata").put("name", "cron").put("namespace", "ns").put("uid", "cron-uid");
        a.putObject("spec").put("concurrencyPolicy", policy);
        return a;
    }

    static ObjectNode child(String name, String scheduledAt, String finished) {
        ObjectNode j = MAPPER.createObjectNode().put("apiVersion", "batch/v1").put("kind", "Job");
        ObjectNode meta = j.putObject("metadata").put("name", name).put("namespace", "ns").put("uid", name + "-uid");
        meta.putObject("annotations").put(AdvancedCronJobInvariant.SCHEDULED_AT, scheduledAt);
        meta.putArray("ownerReferences").addObject().put("apiVersion", "apps.kruise.io/v1beta1")
                .put("kind", "AdvancedCronJob").put("name", "cron").put("uid", "cron-uid").put("controller", true);
        ObjectNode status = j.putObject("status");
        if (finished != null) {
            status.putArray("conditions").addObject().put("type", finished).put("status", "True");
        }
        return j;
    }

    @Test
    void forbidWithAnActiveRunFires() {
        checker.onObject(PodEvent.Type.ADDED, acj("Forbid"), T0);
        checker.onObject(PodEvent.Type.ADDED, child("cron-1", "2025-01-01T00:00:10Z", null), T0 + 10_000);
        checker.onObject(PodEvent.Type.MODIFIED, child("cron-1", "2025-01-01T00:00:10Z", "Complete"), T0 + 15_000);
        checker.onObject(PodEvent.Type.ADDED, child("cron-2", "2025-01-01T00:00:20Z", null), T0 + 20_000);
        assertEquals(List.of(), fired(), "the first run ended before the second");
        checker.onObject(PodEvent.Type.ADDED, child("cron-3", "2025-01-01T00:00:30Z", null), T0 + 30_000);
        assertEquals(List.of(AdvancedCronJobInvariant.FORBID), fired());
    }

    @Test
    void allowWithAnActiveRunIsFine() {
        checker.onObject(PodEvent.Type.ADDED, acj("Allow"), T0);
        checker.onObject(PodEvent.Type.ADDED, child("cron-1", "2025-01-01T00:00:10Z", null), T0 + 10_000);
        checker.onObject(PodEvent.Type.ADDED, child("cron-2", "2025-01-01T00:00:20Z", null), T0 + 20_000);
        assertEquals(List.of(), fired());
    }

    @Test
    void aRunStartedAgainAfterItsChildWasPrunedFires() {
        checker.onObject(PodEvent.Type.ADDED, acj("Allow"), T0);
        ObjectNode first = child("cron-1", "2025-01-01T00:00:10Z", "Complete");
        checker.onObject(PodEvent.Type.ADDED, first, T0 + 10_000);
        checker.onObject(PodEvent.Type.DELETED, first, T0 + 20_000);
        assertEquals(List.of(), fired());
        ObjectNode again = child("cron-1", "2025-01-01T00:00:10Z", null);
        ((ObjectNode) again.get("metadata")).put("uid", "cron-1-second-uid");
        checker.onObject(PodEvent.Type.ADDED, again, T0 + 21_000);
        assertEquals(List.of(AdvancedCronJobInvariant.ONE_RUN_PER_TIME), fired());
    }
}
