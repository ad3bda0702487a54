package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.AdaptiveWorkloadSpreadStrategy;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadScheduleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadStatus;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetCondition;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.kruisevertx.workloadspread.DeletionCostTest.pending;
import static dev.kruisevertx.workloadspread.DeletionCostTest.running;
import static dev.kruisevertx.workloadspread.Fixtures.entry;
import static dev.kruisevertx.workloadspread.Fixtures.withSubsetStatuses;
import static dev.kruisevertx.workloadspread.Fixtures.withVersioned;
import static dev.kruisevertx.workloadspread.Fixtures.ws;
import static dev.kruisevertx.workloadspread.WorkloadSpreads.VERSION_IGNORED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The status OpenKruise's WorkloadSpread controller computes: counts, missing replicas, record expiry, Adaptive. */
class SubsetStatusCalculationTest {
    static final Instant NOW = Instant.parse("2026-01-01T00:10:00Z");

    static SubsetStatusCalculation.Result calc(WorkloadSpread ws, Map<String, List<Pod>> pods, int replicas) {
        return SubsetStatusCalculation.calculate(ws, Map.of(VERSION_IGNORED, pods), pods, replicas, NOW);
    }

    static WorkloadSpreadSubsetStatus recorded(String name, int replicas, int missing, Map<String, String> creating,
                                               Map<String, String> deleting) {
        WorkloadSpreadSubsetStatus s = new WorkloadSpreadSubsetStatus(name, replicas, missing);
        s.setCreatingPods(creating.isEmpty() ? null : new LinkedHashMap<>(creating));
        s.setDeletingPods(deleting.isEmpty() ? null : new LinkedHashMap<>(deleting));
        return s;
    }

    static String ago(int seconds) {
        return NOW.minusSeconds(seconds).toString();
    }

    @Test
    void countsActivePodsAndWhatEachSubsetStillMisses() {
        WorkloadSpread ws = ws("CloneSet", "a:2", "b:2", "c");
        var r = calc(ws, Map.of("a", List.of(running("a1", 1)), "b", List.of(running("b1", 1), running("b2", 1),
                running("b3", 1)), "c", List.of(running("c1", 1))), 6);
        assertEquals(List.of(entry("a", 1, 1, List.of(), List.of()), entry("b", 3, 0, List.of(), List.of()),
                entry("c", 1, -1, List.of(), List.of())), r.status().getSubsetStatuses());
        assertEquals(r.status().getSubsetStatuses(), r.status().getVersionedSubsetStatuses().get(VERSION_IGNORED));
        assertEquals(3L, r.status().getObservedGeneration());
        assertEquals(Optional.empty(), r.requeueAfter());
        assertTrue(r.events().isEmpty());
    }

    @Test
    void aPercentageLimitIsScaledOnTheWorkloadsReplicasRoundedUp() {
        var r = calc(ws("CloneSet", "a:50%", "b"), Map.of("a", List.of(running("a1", 1))), 5);
        assertEquals(2, r.status().getSubsetStatuses().get(0).getMissingReplicas());
    }

    @Test
    void inactivePodsDoNotCount() {
        Pod done = running("a2", 1);
        done.getStatus().setPhase("Failed");
        Pod leaving = running("a3", 1);
        leaving.getMetadata().setDeletionTimestamp("2026-01-01T00:09:00Z");
        var r = calc(ws("CloneSet", "a:3"), Map.of("a", List.of(running("a1", 1), done, leaving)), 3);
        assertEquals(entry("a", 1, 2, List.of(), List.of()), r.status().getSubsetStatuses().get(0));
    }

    @Test
    void creationRecordsEndWhenThePodIsSeenOrAfterThirtySeconds() {
        WorkloadSpread ws = withSubsetStatuses(ws("CloneSet", "a:4"), recorded("a", 0, 0,
                Map.of("seen", ago(5), "fresh", ago(20), "old", ago(31)), Map.of()));
        var r = calc(ws, Map.of("a", List.of(running("seen", 1))), 4);
        WorkloadSpreadSubsetStatus a = r.status().getSubsetStatuses().get(0);
        assertEquals(Map.of("fresh", ago(20)), a.creatingPods());
        assertEquals(1, a.getReplicas());
        assertEquals(2, a.getMissingReplicas(), "4 - 1 seen - 1 still being created");
        assertEquals(Optional.of(Duration.ofSeconds(10)), r.requeueAfter());
        assertEquals(List.of(new SubsetStatusCalculation.Event("Warning", "CreatePodFailed",
                "Pod ns/old was expected to be created but it wasn't")), r.events());
    }

    @Test
    void aCreationRecordedUnderAGeneratedIdEndsWhenThePodCarryingItIsSeen() {
        WorkloadSpread ws = withSubsetStatuses(ws("CloneSet", "a:4"), recorded("a", 0, 0,
                Map.of("uid-1", ago(5)), Map.of()));
        Pod p = running("cs-xyz", 1);
        p.getMetadata().setAnnotations(Map.of(WorkloadSpreads.MATCHED_ANNOTATION,
                new MatchedWorkloadSpread("ws", "a", "uid-1").toAnnotationValue()));
        var r = calc(ws, Map.of("a", List.of(p)), 4);
        assertEquals(Map.of(), r.status().getSubsetStatuses().get(0).creatingPods());
        assertEquals(3, r.status().getSubsetStatuses().get(0).getMissingReplicas());
    }

    @Test
    void aCreationRecordIsClearedByAFinishedPodToo() {
        WorkloadSpread ws = withSubsetStatuses(ws("CloneSet", "a:4"), recorded("a", 0, 0,
                Map.of("done", ago(5)), Map.of()));
        Pod done = running("done", 1);
        done.getStatus().setPhase("Succeeded");
        var r = calc(ws, Map.of("a", List.of(done)), 4);
        assertEquals(entry("a", 0, 4, List.of(), List.of()), r.status().getSubsetStatuses().get(0));
    }

    @Test
    void deletionRecordsLastFifteenSecondsWhileThePodIsStillActive() {
        WorkloadSpread ws = withSubsetStatuses(ws("CloneSet", "a:2"), recorded("a", 2, 0, Map.of(),
                Map.of("a1", ago(10), "a2", ago(16), "gone", ago(1))));
        var r = calc(ws, Map.of("a", List.of(running("a1", 1), running("a2", 1))), 2);
        WorkloadSpreadSubsetStatus a = r.status().getSubsetStatuses().get(0);
        assertEquals(Map.of("a1", ago(10)), a.deletingPods());
        assertEquals(1, a.getMissingReplicas(), "full, but a1 is on its way out");
        assertEquals(Optional.of(Duration.ofSeconds(5)), r.requeueAfter());
        assertEquals(List.of(new SubsetStatusCalculation.Event("Warning", "DeletePodFailed",
                "Pod ns/a2 was expected to be deleted but it wasn't")), r.events());
    }

    @Test
    void aDeletionRecordNeverRaisesMissingAboveTheLimit() {
        WorkloadSpread ws = withSubsetStatuses(ws("CloneSet", "a:1"), recorded("a", 2, 0, Map.of(),
                Map.of("a1", ago(1), "a2", ago(1))));
        var r = calc(ws, Map.of("a", List.of(running("a1", 1), running("a2", 1))), 2);
        assertEquals(1, r.status().getSubsetStatuses().get(0).getMissingReplicas());
    }

    @Test
    void aDeletionRecordInAnUnlimitedSubsetLeavesMissingAtMinusOne() {
        WorkloadSpread ws = withSubsetStatuses(ws("CloneSet", "a"), recorded("a", 1, -1, Map.of(),
                Map.of("a1", ago(1))));
        var r = calc(ws, Map.of("a", List.of(running("a1", 1))), 2);
        assertEquals(-1, r.status().getSubsetStatuses().get(0).getMissingReplicas());
        assertEquals(Map.of("a1", ago(1)), r.status().getSubsetStatuses().get(0).deletingPods());
    }

    @Test
    void anUnreadableLimitLeavesNoSubsetEntries() {
        var r = calc(ws("CloneSet", "a:2", "b:xyz"), Map.of("a", List.of(running("a1", 1))), 2);
        assertEquals(List.of(), r.status().getSubsetStatuses());
    }

    @Test
    void versionEntriesArePerVersionAndAnOldVersionIsDroppedOnceEmpty() {
        WorkloadSpread ws = ws("Deployment", "a:2", "b");
        withVersioned(ws, "v0", entry("a", 0, 2, List.of(), List.of()));
        withVersioned(ws, "v1", recorded("a", 0, 1, Map.of("p9", ago(3)), Map.of()));
        Map<String, Map<String, List<Pod>>> versioned = Map.of("v2", Map.of("a", List.of(running("n1", 1))));
        var r = SubsetStatusCalculation.calculate(ws, versioned, Map.of("a", List.of(running("n1", 1))), 3, NOW);
        WorkloadSpreadStatus s = r.status();
        assertEquals(List.of("v1", "v2"), s.getVersionedSubsetStatuses().keySet().stream().sorted().toList());
        assertEquals(Map.of("p9", ago(3)), s.getVersionedSubsetStatuses().get("v1").get(0).creatingPods());
        assertEquals(1, s.getVersionedSubsetStatuses().get("v2").get(0).getReplicas());
    }

    static WorkloadSpread adaptive(int seconds, String... subsets) {
        WorkloadSpread ws = ws("CloneSet", subsets);
        WorkloadSpreadScheduleStrategy strategy = new WorkloadSpreadScheduleStrategy();
        strategy.setType("Adaptive");
        AdaptiveWorkloadSpreadStrategy adaptive = new AdaptiveWorkloadSpreadStrategy();
        adaptive.setRescheduleCriticalSeconds(seconds);
        strategy.setAdaptive(adaptive);
        ws.getSpec().setScheduleStrategy(strategy);
        return ws;
    }

    static Pod unschedulable(String name, String created) {
        Pod p = pending(name);
        p.getMetadata().setCreationTimestamp(created);
        p.getStatus().setConditions(List.of(new PodConditionBuilder().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").build()));
        return p;
    }

    static String schedulable(WorkloadSpreadSubsetStatus s) {
        return s.conditions().stream().filter(c -> c.getType().equals("Schedulable")).map(c -> c.getStatus()
                + "@" + c.getLastTransitionTime()).findFirst().orElse(null);
    }

    @Test
    void adaptiveMarksASubsetWithAPodUnschedulablePastTheCriticalSecondsAndReturnsIt() {
        Pod stuck = unschedulable("a1", ago(40));
        Pod young = unschedulable("b1", ago(10));
        var r = calc(adaptive(30, "a:2", "b:2", "c"), Map.of("a", List.of(stuck), "b", List.of(young)), 4);
        List<WorkloadSpreadSubsetStatus> s = r.status().getSubsetStatuses();
        assertEquals("False@" + NOW, schedulable(s.get(0)));
        assertEquals("True@" + NOW, schedulable(s.get(1)));
        assertEquals("True@" + NOW, schedulable(s.get(2)), "the last subset is always schedulable");
        assertEquals(List.of(stuck), r.scheduleFailedPods().get("a"));
        assertEquals(List.of(), r.scheduleFailedPods().get("b"));
        assertEquals(Optional.of(Duration.ofSeconds(20)), r.requeueAfter(), "b1 times out in 20s");
    }

    @Test
    void adaptiveRecoversASubsetFiveMinutesAfterItTurnedUnschedulable() {
        WorkloadSpreadSubsetStatus longAgo = entry("a", 2);
        longAgo.setConditions(List.of(new WorkloadSpreadSubsetCondition("Schedulable", "False", ago(301), "", "")));
        WorkloadSpreadSubsetStatus recently = entry("b", 2);
        recently.setConditions(List.of(new WorkloadSpreadSubsetCondition("Schedulable", "False", ago(100), "", "")));
        var r = calc(withSubsetStatuses(adaptive(30, "a:2", "b:2", "c"), longAgo, recently), Map.of(), 4);
        List<WorkloadSpreadSubsetStatus> s = r.status().getSubsetStatuses();
        assertEquals("True@" + NOW, schedulable(s.get(0)));
        assertEquals("False@" + ago(100), schedulable(s.get(1)));
        assertEquals(Optional.of(Duration.ofSeconds(200)), r.requeueAfter());
        assertEquals(List.of(new SubsetStatusCalculation.Event("Normal", "RecoverSchedulable",
                "Subset a of WorkloadSpread ns/ws is recovered from unschedulable to schedulable")), r.events());
    }

    @Test
    void anUnchangedConditionKeepsItsTransitionTime() {
        WorkloadSpreadSubsetStatus a = entry("a", 2);
        a.setConditions(List.of(new WorkloadSpreadSubsetCondition("Schedulable", "True", ago(500), "", "")));
        WorkloadSpreadSubsetStatus c = entry("c", -1);
        c.setConditions(List.of(new WorkloadSpreadSubsetCondition("Schedulable", "True", ago(600), "", "")));
        var r = calc(withSubsetStatuses(adaptive(30, "a:2", "c"), a, c), Map.of(), 4);
        assertEquals("True@" + ago(500), schedulable(r.status().getSubsetStatuses().get(0)));
        assertEquals("True@" + ago(600), schedulable(r.status().getSubsetStatuses().get(1)));
    }

    @Test
    void withoutAdaptiveTheSchedulableConditionIsDropped() {
        WorkloadSpreadSubsetStatus a = entry("a", 2);
        a.setConditions(List.of(new WorkloadSpreadSubsetCondition("Schedulable", "False", ago(5), "", "")));
        var r = calc(withSubsetStatuses(ws("CloneSet", "a:2", "b"), a), Map.of("a", List.of(unschedulable("a1",
                ago(999)))), 4);
        assertNull(schedulable(r.status().getSubsetStatuses().get(0)));
        assertTrue(r.scheduleFailedPods().isEmpty());
    }
}
