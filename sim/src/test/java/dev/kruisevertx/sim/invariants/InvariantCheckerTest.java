package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static dev.kruisevertx.sim.invariants.PodEvent.Type.ADDED;
import static dev.kruisevertx.sim.invariants.PodEvent.Type.DELETED;
import static dev.kruisevertx.sim.invariants.PodEvent.Type.MODIFIED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each invariant fires on a crafted bad sequence of events and stays quiet on the good one next to it. */
class InvariantCheckerTest {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final long T0 = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();
    final InvariantChecker checker = InvariantChecker.withWorkloadInvariants();

    static ObjectNode cloneSet(int replicas, String maxUnavailable, String maxSurge, String updateRevision) {
        ObjectNode w = MAPPER.createObjectNode().put("apiVersion", "apps.kruise.io/v1alpha1").put("kind", "CloneSet");
        w.putObject("metadata").put("name", "cs").put("namespace", "ns").put("uid", "cs-uid").put("generation", 1);
        ObjectNode spec = w.putObject("spec").put("replicas", replicas);
        spec.putObject("selector").putObject("matchLabels").put("app", "cs");
        ObjectNode strategy = spec.putObject("updateStrategy");
        if (maxUnavailable != null) {
            strategy.put("maxUnavailable", maxUnavailable);
        }
        if (maxSurge != null) {
            strategy.put("maxSurge", maxSurge);
        }
        w.putObject("status").put("observedGeneration", 1).put("updateRevision", updateRevision);
        return w;
    }

    static ObjectNode sts(int replicas) {
        ObjectNode w = MAPPER.createObjectNode().put("apiVersion", "apps.kruise.io/v1beta1").put("kind", "StatefulSet");
        w.putObject("metadata").put("name", "sts").put("namespace", "ns").put("uid", "sts-uid");
        ObjectNode spec = w.putObject("spec").put("replicas", replicas);
        spec.putObject("selector").putObject("matchLabels").put("app", "sts");
        w.putObject("status").put("observedGeneration", 1).put("updateRevision", "sts-r1");
        return w;
    }

    static ObjectNode pod(String name, String app, String ownerUid, String revision, boolean ready) {
        ObjectNode p = MAPPER.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = p.putObject("metadata").put("name", name).put("namespace", "ns").put("uid", name + "-uid");
        ObjectNode labels = meta.putObject("labels").put("app", app);
        if (revision != null) {
            labels.put("controller-revision-hash", revision);
        }
        if (ownerUid != null) {
            meta.putArray("ownerReferences").addObject().put("uid", ownerUid).put("controller", true);
        }
        p.putObject("spec").putArray("containers").addObject().put("name", "c").put("image", "nginx:1");
        ObjectNode status = p.putObject("status").put("phase", "Running");
        status.putArray("conditions").addObject().put("type", "Ready").put("status", ready ? "True" : "False")
                .put("lastTransitionTime", "2024-12-31T23:00:00Z");
        return p;
    }

    static ObjectNode unready(ObjectNode pod) {
        ObjectNode p = pod.deepCopy();
        ((ObjectNode) p.at("/status/conditions").get(0)).put("status", "False");
        return p;
    }

    static ObjectNode terminating(ObjectNode pod) {
        ObjectNode p = pod.deepCopy();
        ((ObjectNode) p.get("metadata")).put("deletionTimestamp", "2025-01-01T00:00:01Z");
        return p;
    }

    List<String> fired() {
        checker.settle(T0 + 60_000, true);
        return checker.violations().stream().map(Violation::invariant).toList();
    }

    void readyPods(String prefix, String app, String owner, String rev, int n) {
        for (int i = 0; i < n; i++) {
            checker.onPod(ADDED, pod(prefix + i, app, owner, rev, true), T0);
        }
    }

    @Test
    void maxUnavailableFiresWhenTwoOfThreeGoDownWithABudgetOfOne() {
        checker.onWorkload(WorkloadKind.CLONESET, ADDED, cloneSet(3, "1", null, "r1"), T0);
        readyPods("cs-", "cs", "cs-uid", "r1", 3);
        checker.onPod(MODIFIED, unready(pod("cs-0", "cs", "cs-uid", "r1", true)), T0 + 1);
        assertEquals(List.of(), fired(), "one unavailable pod is within the budget");
        checker.onPod(MODIFIED, unready(pod("cs-1", "cs", "cs-uid", "r1", true)), T0 + 2);
        assertEquals(List.of("max-unavailable"), fired());
    }

    @Test
    void maxUnavailableWaitsForTheWorkloadToBeAvailableAndHonoursMinReadySeconds() {
        ObjectNode cs = cloneSet(3, "1", null, "r1");
        ((ObjectNode) cs.get("spec")).put("minReadySeconds", 30);
        checker.onWorkload(WorkloadKind.CLONESET, ADDED, cs, T0);
        // Pods starting up are unavailable by nature: not a breach before the set was ever fully available.
        for (int i = 0; i < 3; i++) {
            checker.onPod(ADDED, pod("cs-" + i, "cs", "cs-uid", "r1", false), T0);
        }
        readyPods("cs-", "cs", "cs-uid", "r1", 3);
        assertEquals(List.of(), fired());
        // Replaced by two pods Ready only a moment ago: not yet available with minReadySeconds 30.
        ObjectNode fresh = pod("cs-1", "cs", "cs-uid", "r2", true);
        ((ObjectNode) fresh.at("/status/conditions").get(0)).put("lastTransitionTime", "2025-01-01T00:00:55Z");
        ObjectNode fresh2 = fresh.deepCopy();
        ((ObjectNode) fresh2.get("metadata")).put("name", "cs-2").put("uid", "cs-2-uid");
        checker.onPod(MODIFIED, fresh, T0 + 56_000);
        checker.onPod(MODIFIED, fresh2, T0 + 56_000);
        assertEquals(List.of("max-unavailable"), fired());
    }

    /** Two of the set's three pods replaced by pods Ready only a moment ago (one second of the minute run). */
    List<String> stsWithTwoFreshPods(ObjectNode sts) {
        checker.onWorkload(WorkloadKind.ADVANCED_STATEFULSET, ADDED, sts, T0);
        readyPods("sts-", "sts", "sts-uid", "sts-r1", 3);
        for (int i = 1; i <= 2; i++) {
            ObjectNode fresh = pod("sts-" + i, "sts", "sts-uid", "sts-r2", true);
            ((ObjectNode) fresh.at("/status/conditions").get(0)).put("lastTransitionTime", "2025-01-01T00:00:55Z");
            checker.onPod(MODIFIED, fresh, T0 + 56_000);
        }
        return fired();
    }

    @Test
    void advancedStatefulSetMinReadySecondsIsReadFromItsRollingUpdateStrategy() {
        ObjectNode sts = sts(3);
        ((ObjectNode) sts.get("spec")).putObject("updateStrategy").putObject("rollingUpdate")
                .put("minReadySeconds", 30);
        assertEquals(List.of("max-unavailable"), stsWithTwoFreshPods(sts),
                "pods Ready for 1 s are not available with rollingUpdate.minReadySeconds 30");
    }

    @Test
    void advancedStatefulSetHasNoSpecMinReadySeconds() {
        // OpenKruise's v1beta1 StatefulSetSpec has no minReadySeconds: the controller ignores the field, so must the
        // checker (it counted these Ready pods unavailable and reported a breach the controller never made).
        ObjectNode sts = sts(3);
        ((ObjectNode) sts.get("spec")).put("minReadySeconds", 30);
        assertEquals(List.of(), stsWithTwoFreshPods(sts));
    }

    @Test
    void aWorkloadTheRunDeletesIsNoLongerHeldToItsBudgets() {
        checker.onWorkload(WorkloadKind.ADVANCED_STATEFULSET, ADDED, sts(3), T0);
        readyPods("sts-", "sts", "sts-uid", "sts-r1", 3);
        // Background deletion: the garbage collector's pod deletions may reach the pod watch before the workload
        // watch says the set is gone.
        checker.expectWorkloadDeletion("sts-uid");
        for (int i = 0; i < 3; i++) {
            checker.onPod(MODIFIED, terminating(pod("sts-" + i, "sts", "sts-uid", "sts-r1", true)), T0 + 1000);
        }
        assertEquals(List.of(), fired());
    }

    @Test
    void aMaxUnavailableViolationNamesThePodsAndWhy() {
        checker.onWorkload(WorkloadKind.ADVANCED_STATEFULSET, ADDED, sts(3), T0);
        readyPods("sts-", "sts", "sts-uid", "sts-r1", 3);
        checker.onPod(MODIFIED, terminating(pod("sts-2", "sts", "sts-uid", "sts-r1", true)), T0 + 1);
        checker.onPod(MODIFIED, unready(pod("sts-1", "sts", "sts-uid", "sts-r2", true)), T0 + 2);
        String detail = checker.violations().get(0).toString();
        assertTrue(detail.contains("sts-2 terminating") && detail.contains("sts-1 not ready at revision sts-r2"), detail);
    }

    @Test
    void maxSurgeFiresAboveReplicasPlusSurgeButAllowsAScaleDownToDrain() {
        checker.onWorkload(WorkloadKind.CLONESET, ADDED, cloneSet(5, "1", "1", "r1"), T0);
        readyPods("cs-", "cs", "cs-uid", "r1", 6);
        assertEquals(List.of(), fired(), "replicas 5 + maxSurge 1");
        checker.onWorkload(WorkloadKind.CLONESET, MODIFIED, cloneSet(2, "1", "1", "r1"), T0 + 1);
        assertEquals(List.of(), fired(), "after a scale-down the surplus may drain");
        for (int i = 2; i < 6; i++) {
            checker.onPod(DELETED, pod("cs-" + i, "cs", "cs-uid", "r1", true), T0 + 2);
        }
        assertEquals(List.of(), fired());
        checker.onPod(ADDED, pod("cs-extra1", "cs", "cs-uid", "r1", true), T0 + 3);
        assertEquals(List.of(), fired());
        checker.onPod(ADDED, pod("cs-extra2", "cs", "cs-uid", "r1", true), T0 + 3);
        assertEquals(List.of("max-surge"), fired());
    }

    @Test
    void twoPodsForOneOrdinalFireAndAReplacementAfterDeletionDoesNot() {
        checker.onWorkload(WorkloadKind.ADVANCED_STATEFULSET, ADDED, sts(2), T0);
        readyPods("sts-", "sts", "sts-uid", "sts-r1", 2);
        ObjectNode old = pod("sts-1", "sts", "sts-uid", "sts-r1", true);
        checker.onPod(DELETED, old, T0 + 1);
        ObjectNode replacement = pod("sts-1", "sts", "sts-uid", "sts-r1", true);
        ((ObjectNode) replacement.get("metadata")).put("uid", "sts-1-new");
        checker.onPod(ADDED, replacement, T0 + 2);
        checker.expectDeletion("ns", "sts-1");
        assertEquals(List.of(), fired());

        ObjectNode duplicate = pod("sts-1", "sts", "sts-uid", "sts-r1", true);
        ((ObjectNode) duplicate.get("metadata")).put("uid", "sts-1-dup");
        checker.onPod(ADDED, duplicate, T0 + 3);
        // Three pods for two replicas is also a surge the Advanced StatefulSet never makes.
        assertEquals(List.of("max-surge", "one-pod-per-ordinal"), fired());
    }

    @Test
    void bystanderPodsMayChangeStatusButNotMetadataAndMustNotBeDeleted() {
        checker.onWorkload(WorkloadKind.CLONESET, ADDED, cloneSet(1, "1", null, "r1"), T0);
        ObjectNode bystander = pod("other", "other", null, null, false);
        checker.onPod(ADDED, bystander, T0);
        checker.onPod(MODIFIED, pod("other", "other", null, null, true), T0 + 1);
        assertEquals(List.of(), fired(), "a status change is not a touch");

        ObjectNode relabelled = pod("other", "other", null, null, true);
        ((ObjectNode) relabelled.at("/metadata/labels")).put("touched", "yes");
        checker.onPod(MODIFIED, relabelled, T0 + 2);
        assertEquals(List.of("bystander-untouched"), fired());

        checker.onPod(DELETED, relabelled, T0 + 3);
        assertEquals(List.of("bystander-untouched", "bystander-untouched"), fired());

        ObjectNode second = pod("other2", "other", null, null, true);
        checker.onPod(ADDED, second, T0);
        checker.expectDeletion("ns", "other2");
        checker.onPod(DELETED, second, T0 + 4);
        assertEquals(2, fired().size(), "a deletion the run asked for is not a violation");
    }

    @Test
    void deletingAnUpToDatePodNoSpecAskedForFires() {
        checker.onWorkload(WorkloadKind.CLONESET, ADDED, cloneSet(3, "1", null, "r2"), T0);
        checker.onPod(ADDED, pod("cs-0", "cs", "cs-uid", "r1", true), T0);
        readyPods("cs-new", "cs", "cs-uid", "r2", 2);
        // An old revision pod may go (the rollout), and so may one named in podsToDelete.
        checker.onPod(MODIFIED, terminating(pod("cs-0", "cs", "cs-uid", "r1", true)), T0 + 1);
        checker.onPod(DELETED, terminating(pod("cs-0", "cs", "cs-uid", "r1", true)), T0 + 2);
        checker.onPod(ADDED, pod("cs-new2", "cs", "cs-uid", "r2", true), T0 + 2);
        ObjectNode listed = cloneSet(3, "1", null, "r2");
        ((ObjectNode) listed.get("spec")).putObject("scaleStrategy").putArray("podsToDelete").add("cs-new0");
        checker.onWorkload(WorkloadKind.CLONESET, MODIFIED, listed, T0 + 3);
        checker.onPod(DELETED, pod("cs-new0", "cs", "cs-uid", "r2", true), T0 + 4);
        assertEquals(List.of(), fired());

        checker.onPod(ADDED, pod("cs-new3", "cs", "cs-uid", "r2", true), T0 + 4);
        checker.onPod(DELETED, pod("cs-new1", "cs", "cs-uid", "r2", true), T0 + 5);
        assertEquals(List.of("no-unrequested-deletion"), fired());
    }

    @Test
    void aScaleDownJustifiesDeletions() {
        checker.onWorkload(WorkloadKind.CLONESET, ADDED, cloneSet(3, "1", null, "r1"), T0);
        readyPods("cs-", "cs", "cs-uid", "r1", 3);
        checker.onPod(DELETED, pod("cs-2", "cs", "cs-uid", "r1", true), T0 + 1);
        // The pod watch delivered the deletion before the workload watch delivered the new replicas.
        checker.onWorkload(WorkloadKind.CLONESET, MODIFIED, cloneSet(2, "1", null, "r1"), T0 + 2);
        assertEquals(List.of(), fired());
    }

    @Test
    void statusGoingBackwardsFires() {
        ObjectNode cs = cloneSet(1, "1", null, "r1");
        checker.onWorkload(WorkloadKind.CLONESET, ADDED, cs, T0);
        ObjectNode newer = cs.deepCopy();
        ((ObjectNode) newer.get("status")).put("observedGeneration", 2).put("collisionCount", 1);
        checker.onWorkload(WorkloadKind.CLONESET, MODIFIED, newer, T0 + 1);
        assertEquals(List.of(), fired());
        ObjectNode older = newer.deepCopy();
        ((ObjectNode) older.get("status")).put("observedGeneration", 1);
        checker.onWorkload(WorkloadKind.CLONESET, MODIFIED, older, T0 + 2);
        ObjectNode collisionsLost = older.deepCopy();
        ((ObjectNode) collisionsLost.get("status")).remove("collisionCount");
        checker.onWorkload(WorkloadKind.CLONESET, MODIFIED, collisionsLost, T0 + 3);
        assertEquals(List.of("status-never-backwards", "status-never-backwards"), fired());
        assertEquals(2L, checker.violationCounts().get("status-never-backwards"));
        assertEquals(0L, checker.violationCounts().get("max-surge"));
    }

    @Test
    void laterControllersAddTheirOwnInvariants() {
        checker.add(new Invariant() {
            @Override
            public String name() {
                return "custom";
            }

            @Override
            public void onPod(PodEvent event, ClusterView view, Violations out) {
                out.report(new Violation(name(), ClusterView.key(event.pod()), "seen", event.atMillis()));
            }
        });
        checker.onPod(ADDED, pod("p", "x", null, null, true), T0);
        assertTrue(fired().contains("custom"));
    }

    @Test
    void percentagesRoundUp() {
        assertEquals(1, WorkloadKind.scaled("20%", 3));
        assertEquals(2, WorkloadKind.scaled("50%", 3));
        assertEquals(4, WorkloadKind.scaled("4", 3));
        assertEquals(7, WorkloadKind.ADVANCED_STATEFULSET.ordinal("web-7"));
        assertEquals(-1, WorkloadKind.CLONESET.ordinal("web-7"));
        JsonNode unused = MAPPER.createArrayNode();
        assertTrue(unused instanceof ArrayNode);
    }
}
