package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.common.ApiJson;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The UnitedDeployment decision: which subset workloads to create, update and delete, with which numbers. */
class UnitedDeploymentPlannerTest {
    static final SubsetWorkloads.Kind CS = SubsetWorkloads.Kind.CLONE_SET;

    static UnitedDeployment ud(String extra) {
        return ApiJson.serialization().unmarshal("{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"UnitedDeployment\","
                + "\"metadata\":{\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"replicas\":6,"
                + "\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"cloneSetTemplate\":{\"spec\":"
                + "{\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":"
                + "{\"app\":\"web\"}}}}}},\"topology\":{\"subsets\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"}]}"
                + extra + "}}", UnitedDeployment.class);
    }

    static SubsetWorkload w(String name, String subset, String revision, int replicas, int partition) {
        return new SubsetWorkload(name, CS, subset, revision, "", replicas, partition, replicas, replicas, replicas,
                replicas);
    }

    @Test
    void createsEverySubsetEvenlyAtTheRevision() {
        UnitedDeploymentPlan plan = UnitedDeploymentPlanner.plan(ud("").spec(), "r1", List.of());
        assertEquals(List.of(new UnitedDeploymentPlan.Create("a", 2, 0), new UnitedDeploymentPlan.Create("b", 2, 0),
                new UnitedDeploymentPlan.Create("c", 2, 0)), plan.creates());
        assertTrue(plan.updates().isEmpty() && plan.deletes().isEmpty());
    }

    @Test
    void settledSubsetsAreLeftAlone() {
        UnitedDeploymentPlan plan = UnitedDeploymentPlanner.plan(ud("").spec(), "r1",
                List.of(w("web-a-1", "a", "r1", 2, 0), w("web-b-1", "b", "r1", 2, 0), w("web-c-1", "c", "r1", 2, 0)));
        assertTrue(plan.idle(), plan.toString());
    }

    @Test
    void aNewRevisionUpdatesEverySubsetAndManualPartitionsHoldPodsBack() {
        UnitedDeployment ud = ud(",\"updateStrategy\":{\"type\":\"Manual\",\"manualUpdate\":{\"partitions\":"
                + "{\"a\":2,\"b\":5}}}");
        UnitedDeploymentPlan plan = UnitedDeploymentPlanner.plan(ud.spec(), "r2",
                List.of(w("web-a-1", "a", "r1", 2, 0), w("web-b-1", "b", "r1", 2, 0), w("web-c-1", "c", "r1", 2, 0)));
        assertEquals(List.of(new UnitedDeploymentPlan.Update("web-a-1", "a", 2, 2, "revision"),
                new UnitedDeploymentPlan.Update("web-b-1", "b", 2, 2, "revision"),
                new UnitedDeploymentPlan.Update("web-c-1", "c", 2, 0, "revision")), plan.updates());
        assertEquals(Map.of("a", 2, "b", 2, "c", 0), plan.nextPartitions(), "a partition is capped at the replicas");
    }

    @Test
    void partitionsApplyOnlyToTheManualType() {
        UnitedDeployment ud = ud(",\"updateStrategy\":{\"type\":\"Other\",\"manualUpdate\":{\"partitions\":{\"a\":1}}}");
        assertEquals(0, UnitedDeploymentPlanner.plan(ud.spec(), "r1", List.of()).nextPartitions().get("a"));
    }

    @Test
    void scaleChangesReplicasAndAnUnfinishedUpdateIsFollowed() {
        UnitedDeployment ud = ud("");
        ud.getSpec().setReplicas(7);
        SubsetWorkload updating = new SubsetWorkload("web-c-1", CS, "c", "r1", "", 2, 0, 2, 2, 1, 1);
        UnitedDeploymentPlan plan = UnitedDeploymentPlanner.plan(ud.spec(), "r1",
                List.of(w("web-a-1", "a", "r1", 3, 0), w("web-b-1", "b", "r1", 2, 0), updating));
        assertEquals(Map.of("a", 3, "b", 2, "c", 2), plan.nextReplicas(), "the remainder to the biggest subset");
        assertEquals(List.of(new UnitedDeploymentPlan.Update("web-c-1", "c", 2, 0, "updating")), plan.updates());
    }

    @Test
    void removedSubsetsDuplicatesAndOtherKindsAreDeleted() {
        UnitedDeployment ud = ud("");
        ud.getSpec().getTopology().getSubsets().remove(2);
        SubsetWorkload deployment = new SubsetWorkload("web-a-0", SubsetWorkloads.Kind.DEPLOYMENT, "a", "r0", "", 3, 0,
                3, 3, 3, 3);
        UnitedDeploymentPlan plan = UnitedDeploymentPlanner.plan(ud.spec(), "r1", List.of(w("web-b-2", "b", "r1", 3, 0),
                w("web-b-1", "b", "r1", 3, 0), w("web-c-1", "c", "r1", 2, 0), deployment));
        assertEquals(List.of(new UnitedDeploymentPlan.Delete("web-a-0", "a", "kind changed"),
                new UnitedDeploymentPlan.Delete("web-b-2", "b", "duplicate"),
                new UnitedDeploymentPlan.Delete("web-c-1", "c", "not in topology")), plan.deletes());
        assertEquals(List.of(new UnitedDeploymentPlan.Create("a", 3, 0)), plan.creates(),
                "the subset of the replaced kind is made again from the template");
        assertTrue(plan.updates().isEmpty(), plan.updates().toString());
    }

    @Test
    void aChangedPatchUpdatesTheSubset() {
        UnitedDeployment ud = ApiJson.serialization().unmarshal(ApiJson.toJson(ud("")).replace("{\"name\":\"a\"}",
                "{\"name\":\"a\",\"patch\":{\"metadata\":{\"labels\":{\"z\":\"a\"}}}}"), UnitedDeployment.class);
        UnitedDeploymentPlan plan = UnitedDeploymentPlanner.plan(ud.spec(), "r1",
                List.of(w("web-a-1", "a", "r1", 2, 0), w("web-b-1", "b", "r1", 2, 0), w("web-c-1", "c", "r1", 2, 0)));
        assertEquals(List.of(new UnitedDeploymentPlan.Update("web-a-1", "a", 2, 0, "patch")), plan.updates());
    }

    @Test
    void anImpossibleSplitChangesNothingAndSaysWhy() {
        UnitedDeployment ud = ud("");
        ud.getSpec().getTopology().getSubsets().forEach(s -> s.setReplicas(new io.fabric8.kubernetes.api.model.IntOrString(3)));
        UnitedDeploymentPlan plan = UnitedDeploymentPlanner.plan(ud.spec(), "r1", List.of());
        assertEquals("specified subsets' replica (9) is greater than UnitedDeployment replica (6)", plan.allocationError());
        assertTrue(plan.idle());
    }

    @Test
    void adaptiveMovesTheReplicasOfAnUnschedulableSubsetToTheNext() {
        UnitedDeployment ud = ud(",\"updateStrategy\":{}");
        ud.getSpec().getTopology().setScheduleStrategy(new dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentScheduleStrategy());
        ud.getSpec().getTopology().getScheduleStrategy().setType("Adaptive");
        ud.getSpec().getTopology().getSubsets().get(0).setMaxReplicas(new io.fabric8.kubernetes.api.model.IntOrString(2));
        ud.getSpec().getTopology().getSubsets().get(1).setMaxReplicas(new io.fabric8.kubernetes.api.model.IntOrString(2));
        SubsetWorkload a = new SubsetWorkload("web-a-1", CS, "a", "r1", "", 2, 0, 2, 0, 2, 0);
        List<SubsetWorkload> existing = List.of(a, w("web-b-1", "b", "r1", 2, 0), w("web-c-1", "c", "r1", 2, 0));
        assertTrue(UnitedDeploymentPlanner.plan(ud.spec(), "r1", existing).idle(), "schedulable: nothing moves");
        UnitedDeploymentPlan moved = UnitedDeploymentPlanner.plan(ud.spec(), "r1", existing, java.util.Set.of("a"));
        assertEquals(Map.of("a", 0, "b", 2, "c", 4), moved.nextReplicas());
        assertEquals(List.of(new UnitedDeploymentPlan.Update("web-a-1", "a", 0, 0, "replicas"),
                new UnitedDeploymentPlan.Update("web-c-1", "c", 4, 0, "replicas")), moved.updates());
        assertEquals(Map.of("a", 2, "b", 2, "c", 2), UnitedDeploymentPlanner.plan(ud.spec(), "r1", existing,
                java.util.Set.of()).nextReplicas(), "once it recovers the replicas come back");
    }
}
