package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentStatus;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetCondition;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetStatus;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The UnitedDeployment status as OpenKruise's calculateStatus computes it. */
class UnitedDeploymentStatusCalculatorTest {
    static final SubsetWorkloads.Kind CS = SubsetWorkloads.Kind.CLONE_SET;

    static UnitedDeploymentPlan plan(Map<String, Integer> replicas, Map<String, Integer> partitions) {
        return new UnitedDeploymentPlan(replicas, partitions, List.of(), List.of(), List.of(), null);
    }

    static Map<String, SubsetWorkload> workloads(SubsetWorkload... ws) {
        Map<String, SubsetWorkload> m = new LinkedHashMap<>();
        for (SubsetWorkload w : ws) {
            m.put(w.subsetName(), w);
        }
        return m;
    }

    @Test
    void sumsTheSubsetsAndKeepsTheCurrentRevisionDuringAnUpdate() {
        UnitedDeploymentStatus old = new UnitedDeploymentStatus();
        old.setCurrentRevision("r1");
        UnitedDeploymentSubsetStatus zoneA = new UnitedDeploymentSubsetStatus();
        zoneA.setName("a");
        UnitedDeploymentSubsetCondition schedulable = new UnitedDeploymentSubsetCondition();
        schedulable.setType("Schedulable");
        schedulable.setStatus("True");
        zoneA.setConditions(List.of(schedulable));
        old.setSubsetStatuses(List.of(zoneA));
        UnitedDeploymentStatus s = UnitedDeploymentStatusCalculator.compute(old,
                plan(Map.of("a", 3, "b", 3), Map.of("a", 2, "b", 0)),
                workloads(new SubsetWorkload("web-a-x", CS, "a", "r2", "", 3, 2, 3, 3, 1, 1),
                        new SubsetWorkload("web-b-x", CS, "b", "r2", "", 3, 0, 3, 2, 3, 2)),
                "r0", "r2", "app=web", 7);
        assertEquals(6, s.getReplicas());
        assertEquals(5, s.getReadyReplicas());
        assertEquals(4, s.getUpdatedReplicas());
        assertEquals(3, s.getUpdatedReadyReplicas());
        assertEquals("r1", s.getCurrentRevision(), "not every pod is updated and ready");
        assertEquals("r2", s.getUpdateStatus().getUpdatedRevision());
        assertEquals(Map.of("a", 2, "b", 0), s.getUpdateStatus().getCurrentPartitions());
        assertEquals(Map.of("a", 3, "b", 3), s.getSubsetReplicas());
        assertEquals(2, s.getSubsetStatuses().size());
        assertEquals(2, s.getSubsetStatuses().get(0).getPartition());
        assertEquals(1, s.getSubsetStatuses().get(0).getConditions().size(), "subset conditions are kept");
        assertEquals(2, s.getSubsetStatuses().get(1).getReadyReplicas());
        assertEquals("app=web", s.getLabelSelector());
        assertEquals(7, s.getObservedGeneration());
        assertNull(old.getUpdateStatus(), "the old status is not changed");
    }

    @Test
    void theCurrentRevisionStartsAtTheGivenOneAndMovesWhenEveryPodIsUpdatedAndReady() {
        UnitedDeploymentStatus first = UnitedDeploymentStatusCalculator.compute(null, plan(Map.of("a", 2), Map.of("a", 0)),
                workloads(new SubsetWorkload("web-a-x", CS, "a", "r1", "", 2, 0, 2, 1, 1, 1)), "r1", "r2", "app=web", 1);
        assertEquals("r1", first.getCurrentRevision());
        UnitedDeploymentStatus done = UnitedDeploymentStatusCalculator.compute(first, plan(Map.of("a", 2), Map.of("a", 0)),
                workloads(new SubsetWorkload("web-a-x", CS, "a", "r2", "", 2, 0, 2, 2, 2, 2)), "r1", "r2", "app=web", 1);
        assertEquals("r2", done.getCurrentRevision());
        UnitedDeploymentStatus empty = UnitedDeploymentStatusCalculator.compute(null, plan(Map.of(), Map.of()),
                Map.of(), "r1", "r1", "app=web", 1);
        assertEquals(0, empty.getReplicas());
        assertNull(empty.getSubsetStatuses());
    }
}
