package dev.kruisevertx.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateStatus;
import dev.kruisevertx.api.apps.v1alpha1.PodState;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.kruisevertx.persistentpodstate.PpsFixtures.HOST;
import static dev.kruisevertx.persistentpodstate.PpsFixtures.ZONE;
import static dev.kruisevertx.persistentpodstate.PpsFixtures.pod;
import static dev.kruisevertx.persistentpodstate.PpsFixtures.pps;
import static dev.kruisevertx.persistentpodstate.PpsFixtures.state;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The recording table: OpenKruise v1.9.0's Reconcile (persistent_pod_state_controller_test.go cases as facts). */
class PodStateRecordingTest {
    static final Map<String, Map<String, String>> NODES = Map.of(
            "node-1", Map.of(ZONE, "zone-a", HOST, "node-1", "other", "x"),
            "node-2", Map.of(ZONE, "zone-b", HOST, "node-2"),
            "node-3", Map.of(HOST, "node-3"));
    static final PodStateRecording.Workload THREE = new PodStateRecording.Workload(i -> i >= 0 && i < 3, false);

    static PodStateRecording.Plan run(PersistentPodState pps, PodStateRecording.Workload w, Pod... pods) {
        Map<String, Pod> byName = new LinkedHashMap<>();
        for (Pod p : pods) {
            byName.put(p.getMetadata().getName(), p);
        }
        return PodStateRecording.decide(pps, w, byName, NODES::get);
    }

    static PersistentPodState zoneHost() {
        return pps("web", List.of(ZONE), List.of(HOST), null, null);
    }

    static PersistentPodState withStates(PersistentPodState pps, Map<String, PodState> states) {
        PersistentPodStateStatus s = new PersistentPodStateStatus();
        s.setPodStates(new LinkedHashMap<>(states));
        pps.setStatus(s);
        return pps;
    }

    @Test
    void readyPodsAreRecordedWithTheirNodesTopology() {
        var plan = run(zoneHost(), THREE, pod("web-0", "node-1", true, null), pod("web-1", "node-2", true, null));
        assertEquals(Map.of("web-0", state("node-1", Map.of(ZONE, "zone-a", HOST, "node-1"), null),
                "web-1", state("node-2", Map.of(ZONE, "zone-b", HOST, "node-2"), null)), plan.status().getPodStates());
        assertEquals(List.of("web-0", "web-1"), plan.recorded());
        assertEquals(1L, plan.status().getObservedGeneration());
    }

    @Test
    void unreadyPodIsNotRecorded() {
        var plan = run(zoneHost(), THREE, pod("web-0", "node-1", false, null));
        assertNull(plan.status().getPodStates());
        assertEquals(List.of("web-0: not ready"), plan.waiting());
    }

    @Test
    void podWithoutNodeIsNotRecorded() {
        var plan = run(zoneHost(), THREE, pod("web-0", null, true, null));
        assertNull(plan.status().getPodStates());
    }

    @Test
    void podOnAnUnknownNodeWaits() {
        var plan = run(zoneHost(), THREE, pod("web-0", "node-9", true, null));
        assertEquals(List.of("web-0: node node-9 not found"), plan.waiting());
    }

    @Test
    void onlyTheAskedKeysAreRecorded() {
        var plan = run(pps("web", List.of(ZONE), null, null, null), THREE, pod("web-0", "node-1", true, null));
        assertEquals(Map.of(ZONE, "zone-a"), plan.status().getPodStates().get("web-0").labels());
    }

    @Test
    void aKeyTheNodeLacksIsLeftOut() {
        var plan = run(zoneHost(), THREE, pod("web-0", "node-3", true, null));
        assertEquals(Map.of(HOST, "node-3"), plan.status().getPodStates().get("web-0").labels());
    }

    @Test
    void persistentAnnotationsAreRecorded() {
        var plan = run(pps("web", List.of(ZONE), null, List.of("ip", "missing"), null), THREE,
                pod("web-0", "node-1", true, Map.of("ip", "10.0.0.7", "other", "y")));
        assertEquals(Map.of("ip", "10.0.0.7"), plan.status().getPodStates().get("web-0").annotations());
    }

    @Test
    void anUnchangedStateIsNotRecordedAgain() {
        PersistentPodState pps = withStates(zoneHost(), Map.of("web-0",
                state("node-1", Map.of(ZONE, "zone-a", HOST, "node-1"), null)));
        var plan = run(pps, THREE, pod("web-0", "node-1", true, null));
        assertEquals(List.of(), plan.recorded());
        assertEquals(pps.getStatus().getPodStates(), plan.status().getPodStates());
    }

    @Test
    void aPodOnANewNodeIsRecordedAgain() {
        PersistentPodState pps = withStates(zoneHost(), Map.of("web-0",
                state("node-1", Map.of(ZONE, "zone-a", HOST, "node-1"), null)));
        var plan = run(pps, THREE, pod("web-0", "node-2", true, null));
        assertEquals(List.of("web-0"), plan.recorded());
        assertEquals("node-2", plan.status().getPodStates().get("web-0").getNodeName());
    }

    @Test
    void changedKeysRecordAgain() {
        PersistentPodState pps = withStates(pps("web", List.of(ZONE, "other"), null, null, null), Map.of("web-0",
                state("node-1", Map.of(ZONE, "zone-a"), null)));
        var plan = run(pps, THREE, pod("web-0", "node-1", true, null));
        assertEquals(Map.of(ZONE, "zone-a", "other", "x"), plan.status().getPodStates().get("web-0").labels());
    }

    @Test
    void aDeletedPodKeepsItsStateWhileItsOrdinalIsInTheReplicas() {
        PersistentPodState pps = withStates(zoneHost(), Map.of("web-1",
                state("node-2", Map.of(ZONE, "zone-b"), null)));
        var plan = run(pps, THREE);
        assertEquals(Set.of("web-1"), plan.status().getPodStates().keySet());
        assertEquals(List.of(), plan.forgotten());
    }

    @Test
    void whenScaledDropsTheStateOfAGoneOrdinalBeyondTheReplicas() {
        PersistentPodState pps = withStates(zoneHost(), Map.of("web-1", state("node-2", Map.of(ZONE, "zone-b"), null),
                "web-4", state("node-1", Map.of(ZONE, "zone-a"), null)));
        var plan = run(pps, THREE);
        assertEquals(Set.of("web-1"), plan.status().getPodStates().keySet());
        assertEquals(List.of("web-4"), plan.forgotten());
    }

    @Test
    void whenScaledKeepsAStateBeyondTheReplicasWhileThePodStillExists() {
        PersistentPodState pps = withStates(zoneHost(), Map.of("web-4", state("node-1", Map.of(ZONE, "zone-a"), null)));
        var plan = run(pps, THREE, pod("web-4", "node-1", false, null));
        assertEquals(Set.of("web-4"), plan.status().getPodStates().keySet());
    }

    @Test
    void whenDeletedKeepsStatesThroughScaleDown() {
        PersistentPodState pps = withStates(pps("web", List.of(ZONE), null, null, "WhenDeleted"),
                Map.of("web-4", state("node-1", Map.of(ZONE, "zone-a"), null)));
        var plan = run(pps, THREE);
        assertEquals(Set.of("web-4"), plan.status().getPodStates().keySet());
    }

    @Test
    void anUnknownRetentionValueBehavesAsWhenScaled() {
        PersistentPodState pps = withStates(pps("web", List.of(ZONE), null, null, "Sometimes"),
                Map.of("web-4", state("node-1", Map.of(ZONE, "zone-a"), null)));
        assertNull(run(pps, THREE).status().getPodStates());
    }

    @Test
    void reservedOrdinalsAreOutsideTheReplicas() {
        // replicas 3 with ordinal 1 reserved: 0, 2, 3 are kept.
        var reserved = new PodStateRecording.Workload(i -> i == 0 || i == 2 || i == 3, false);
        PersistentPodState pps = withStates(zoneHost(), Map.of("web-1", state("node-1", Map.of(ZONE, "zone-a"), null),
                "web-3", state("node-2", Map.of(ZONE, "zone-b"), null)));
        assertEquals(Set.of("web-3"), run(pps, reserved).status().getPodStates().keySet());
    }

    @Test
    void aStateWhoseNameHasNoOrdinalIsKept() {
        PersistentPodState pps = withStates(zoneHost(), Map.of("web-x", state("node-1", Map.of(ZONE, "zone-a"), null)));
        assertEquals(Set.of("web-x"), run(pps, THREE).status().getPodStates().keySet());
    }

    @Test
    void aMissingWorkloadDropsEveryState() {
        PersistentPodState pps = withStates(zoneHost(), Map.of("web-0", state("node-1", Map.of(ZONE, "zone-a"), null)));
        var plan = run(pps, null);
        assertNull(plan.status().getPodStates());
        assertEquals(List.of("web-0"), plan.forgotten());
        assertTrue(plan.reason().startsWith("workload not found"));
    }

    @Test
    void aWorkloadBeingDeletedDropsEveryState() {
        PersistentPodState pps = withStates(zoneHost(), Map.of("web-0", state("node-1", Map.of(ZONE, "zone-a"), null)));
        assertNull(run(pps, new PodStateRecording.Workload(i -> true, true), pod("web-0", "node-1", true, null))
                .status().getPodStates());
    }

    @Test
    void ordinalParsing() {
        assertEquals(12, PodStateRecording.ordinal("web-12"));
        assertEquals(0, PodStateRecording.ordinal("a-b-0"));
        assertNull(PodStateRecording.ordinal("web-"));
        assertNull(PodStateRecording.ordinal("web-99999999999"));
        assertEquals(1, PodStateRecording.ordinal("web--1")); // after the last '-', as Go's LastIndex
    }
}
