package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.AdaptiveUnitedDeploymentStrategy;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentCondition;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentScheduleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentStatus;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetCondition;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Adaptive strategy over a UnitedDeployment's subsets, both modes, as OpenKruise v1.9.0 runs it. */
class AdaptiveSchedulingTest {
    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    static final String REV = "ud-1";

    static UnitedDeploymentScheduleStrategy strategy(boolean reserve) {
        UnitedDeploymentScheduleStrategy s = new UnitedDeploymentScheduleStrategy();
        s.setType("Adaptive");
        AdaptiveUnitedDeploymentStrategy a = new AdaptiveUnitedDeploymentStrategy();
        a.setRescheduleCriticalSeconds(30);
        a.setUnschedulableDuration(300);
        a.setReserveUnschedulablePods(reserve);
        s.setAdaptive(a);
        return s;
    }

    static SubsetWorkload workload(String subset, int spec, int replicas, int ready) {
        return new SubsetWorkload("ud-" + subset + "-x", SubsetWorkloads.Kind.CLONE_SET, subset, REV, "", spec, 0,
                replicas, ready, replicas, ready);
    }

    /** A pod of {@code revision}; {@code reserved} is its label value or null. */
    static PodBuilder pod(String name, String revision, String reserved, int ageSeconds) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name)
                .withCreationTimestamp(NOW.minusSeconds(ageSeconds).toString())
                .addToLabels(UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL, revision).endMetadata()
                .withNewSpec().endSpec();
        if (reserved != null) {
            b.editMetadata().addToLabels(UnitedDeployment.RESERVED_POD_LABEL, reserved).endMetadata();
        }
        return b;
    }

    static Pod unschedulable(String name, String reserved, int ageSeconds) {
        return pod(name, REV, reserved, ageSeconds).withNewStatus().withPhase("Pending").addNewCondition()
                .withType("PodScheduled").withStatus("False").withReason("Unschedulable").endCondition().endStatus()
                .build();
    }

    static Pod readyFor(String name, String revision, String reserved, int readySeconds) {
        return pod(name, revision, reserved, 600).editSpec().withNodeName("n1").endSpec().withNewStatus()
                .withPhase("Running").addNewCondition().withType("Ready").withStatus("True")
                .withLastTransitionTime(NOW.minusSeconds(readySeconds).toString()).endCondition().endStatus().build();
    }

    static UnitedDeploymentStatus status(String... subsets) {
        UnitedDeploymentStatus s = new UnitedDeploymentStatus();
        List<UnitedDeploymentSubsetStatus> list = new ArrayList<>();
        for (String name : subsets) {
            UnitedDeploymentSubsetStatus ss = new UnitedDeploymentSubsetStatus();
            ss.setName(name);
            list.add(ss);
        }
        s.setSubsetStatuses(list);
        return s;
    }

    static UnitedDeploymentSubsetCondition schedulable(UnitedDeploymentStatus s, String subset) {
        UnitedDeploymentSubsetStatus ss = UnitedDeploymentConditions.subsetStatus(s, subset);
        return ss.getConditions() == null ? null : ss.getConditions().get(0);
    }

    static Map<String, AdaptiveScheduling.SubsetInput> inputs(Object... pairs) {
        Map<String, AdaptiveScheduling.SubsetInput> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            SubsetWorkload w = (SubsetWorkload) pairs[i];
            @SuppressWarnings("unchecked")
            List<Pod> pods = (List<Pod>) pairs[i + 1];
            m.put(w.subsetName(), new AdaptiveScheduling.SubsetInput(w, pods));
        }
        return m;
    }

    @Test
    void defaultModeMarksTheSubsetWithTimedOutPendingPodsAndAsksToLookAgainWhenTheYoungOneTimesOut() {
        UnitedDeploymentStatus status = status("a", "b");
        AdaptiveScheduling.Outcome o = AdaptiveScheduling.evaluate(strategy(false), status, inputs(
                workload("a", 3, 3, 1), List.of(unschedulable("old", null, 40), unschedulable("young", null, 20)),
                workload("b", 2, 2, 2), List.of()), REV, NOW);
        assertEquals(List.of("a"), o.unschedulable());
        assertEquals(new SubsetState(3, 1, true, false, 0), o.states().get("a"));
        assertEquals(new SubsetState(2, 2, false, false, 0), o.states().get("b"));
        assertEquals(Map.of("a", 1, "b", 0), o.pendingPods());
        assertEquals(Duration.ofSeconds(10), o.recheckIn(), "the young pod times out in 10s");
        UnitedDeploymentSubsetCondition c = schedulable(status, "a");
        assertEquals("False", c.getStatus());
        assertEquals("reschedule", c.getReason());
        assertEquals("timeout pending pods found", c.getMessage());
        assertEquals(NOW.toString(), c.getLastTransitionTime());
        assertNull(schedulable(status, "b"), "a schedulable subset gets no condition in the default mode");
        assertTrue(o.labelPods().isEmpty());
    }

    @Test
    void reservationModeReservesTimedOutPodsAndLabelsEveryPodOnce() {
        UnitedDeploymentStatus status = status("a", "b");
        AdaptiveScheduling.Outcome o = AdaptiveScheduling.evaluate(strategy(true), status, inputs(
                workload("a", 2, 2, 0), List.of(unschedulable("a-1", null, 40), unschedulable("a-2", null, 10)),
                workload("b", 2, 2, 2), List.of(readyFor("b-1", REV, null, 100), readyFor("b-2", REV, "false", 100))),
                REV, NOW);
        assertEquals(Map.of("a-1", "true", "a-2", "false", "b-1", "false"), o.labelPods(),
                "labels written only where missing or changed");
        assertEquals(Map.of("a", 1, "b", 0), o.reservedPods());
        assertEquals(new SubsetState(2, 0, true, false, 1), o.states().get("a"));
        assertEquals(new SubsetState(2, 2, false, false, 0), o.states().get("b"));
        assertEquals(Map.of("a", 2), o.maxUnavailable(), "a's 2 pods not ready, no timed-out update");
        assertEquals("False", schedulable(status, "a").getStatus());
        assertEquals("reserved pods found", schedulable(status, "a").getMessage());
        assertEquals("True", schedulable(status, "b").getStatus());
        assertEquals("no reserved pods", schedulable(status, "b").getMessage());
        assertEquals(Duration.ofSeconds(20), o.recheckIn(), "a-2 times out in 20s");
    }

    @Test
    void aReservedPodLeavesTheReservationOnlyAfterRunningReadyForTheUnschedulableDuration() {
        UnitedDeploymentStatus status = status("a");
        AdaptiveScheduling.Outcome o = AdaptiveScheduling.evaluate(strategy(true), status, inputs(
                workload("a", 2, 2, 2), List.of(readyFor("a-1", REV, "true", 301), readyFor("a-2", REV, "true", 100))),
                REV, NOW);
        assertEquals(Map.of("a-1", "false"), o.labelPods());
        assertEquals(Map.of("a", 1), o.reservedPods());
        assertEquals(Duration.ofSeconds(200), o.recheckIn(), "a-2 leaves in 200s");
    }

    @Test
    void podsCreatedWhileTheSubsetIsMarkedAreReservedAtOnce() {
        UnitedDeploymentStatus status = status("a");
        AdaptiveScheduling.setCondition(UnitedDeploymentConditions.subsetStatus(status, "a"), "False", "reschedule",
                "subset just recovered scaled up", NOW.minusSeconds(5));
        AdaptiveScheduling.Outcome o = AdaptiveScheduling.evaluate(strategy(true), status, inputs(
                workload("a", 1, 1, 1), List.of(readyFor("a-new", REV, null, 1000))), REV, NOW);
        assertEquals(Map.of("a-new", "true"), o.labelPods());
        assertEquals(new SubsetState(1, 1, true, true, 1), o.states().get("a"));
        assertEquals(Duration.ofSeconds(300), o.recheckIn());
    }

    @Test
    void anOldRevisionPodIsReservedOnceTheUpdateHasLastedTheCriticalDuration() {
        UnitedDeploymentStatus status = status("a");
        UnitedDeploymentConditions.set(status, UnitedDeploymentCondition.UNITED_DEPLOYMENT_UPDATED, "False",
                "UnitedDeploymentRevisionUpdating", "updating to revision " + REV, NOW.minusSeconds(31));
        AdaptiveScheduling.Outcome o = AdaptiveScheduling.evaluate(strategy(true), status, inputs(
                workload("a", 2, 2, 2), List.of(readyFor("a-old", "ud-0", "false", 1000),
                        readyFor("a-new", REV, "false", 1000))), REV, NOW);
        assertEquals(Map.of("a-old", "true"), o.labelPods());
        assertEquals(Map.of("a", 1), o.reservedPods());
        assertEquals(Map.of("a", 1), o.maxUnavailable(), "0 not ready + 1 update timed out");
    }

    @Test
    void aRecoveredSubsetGivenMoreReplicasIsMarkedAgain() {
        UnitedDeploymentStatus status = status("a");
        AdaptiveScheduling.setCondition(UnitedDeploymentConditions.subsetStatus(status, "a"), "False", "reschedule",
                "reserved pods found", NOW.minusSeconds(60));
        AdaptiveScheduling.Outcome o = AdaptiveScheduling.evaluate(strategy(true), status, inputs(
                workload("a", 1, 1, 1), List.of(readyFor("a-1", REV, "false", 1000))), REV, NOW);
        assertFalse(o.states().get("a").unschedulable());
        assertTrue(o.states().get("a").markedAsUnschedulable());
        assertEquals("True", schedulable(status, "a").getStatus());
        AdaptiveScheduling.afterAllocation(strategy(true), status, o, Map.of("a", 3), NOW);
        assertEquals("False", schedulable(status, "a").getStatus());
        assertEquals("subset just recovered scaled up", schedulable(status, "a").getMessage());
        UnitedDeploymentStatus fixed = status("a");
        AdaptiveScheduling.afterAllocation(strategy(false), fixed, o, Map.of("a", 3), NOW);
        assertNull(schedulable(fixed, "a"), "only the reservation mode marks again");
    }

    @Test
    void aCloneSetPodIsUpToDateByItsCloneSetsUpdateRevisionNotTheUnitedDeploymentRevision() {
        // The CloneSet labels its pods with its own revision ("ud-a-x-5f7c") in controller-revision-hash; the
        // UnitedDeployment's revision label (apps.kruise.io/controller-revision-hash) is not read on this path.
        Pod running = new PodBuilder(readyFor("a-1", "ud-a-x-5f7c", "true", 301)).editMetadata()
                .removeFromLabels(UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL)
                .addToLabels(dev.kruisevertx.api.common.WellKnown.CONTROLLER_REVISION_HASH_LABEL, "ud-a-x-5f7c")
                .endMetadata().build();
        UnitedDeploymentStatus status = status("a");
        Map<String, AdaptiveScheduling.SubsetInput> in = Map.of("a", new AdaptiveScheduling.SubsetInput(
                workload("a", 1, 1, 1), List.of(running), "ud-a-x-5f7c"));
        AdaptiveScheduling.Outcome o = AdaptiveScheduling.evaluate(strategy(true), status, in, REV, NOW);
        assertEquals(Map.of("a-1", "false"), o.labelPods(), "ran Ready at the CloneSet's update revision: released");
        // While the CloneSet is not yet at the UnitedDeployment's revision none of its pods is up to date.
        AdaptiveScheduling.Outcome old = AdaptiveScheduling.evaluate(strategy(true), status("a"), Map.of("a",
                new AdaptiveScheduling.SubsetInput(workload("a", 1, 1, 1), List.of(running), "")), REV, NOW);
        assertEquals(Map.of("a", 1), old.reservedPods());
        assertTrue(old.labelPods().isEmpty());
    }
}
