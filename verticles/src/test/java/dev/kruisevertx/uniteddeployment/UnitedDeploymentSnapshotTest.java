package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.controller.PlanSummary;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the controller reads of a UnitedDeployment and its CloneSet subsets, and what its debug plan shows. */
class UnitedDeploymentSnapshotTest {

    static UnitedDeployment ud(String image) {
        return ApiJson.serialization().unmarshal("""
                {"apiVersion":"apps.kruise.io/v1alpha1","kind":"UnitedDeployment",
                 "metadata":{"name":"web","namespace":"ns","uid":"u1"},
                 "spec":{"replicas":4,"selector":{"matchLabels":{"app":"web"}},
                  "template":{"cloneSetTemplate":{"metadata":{"labels":{"app":"web"}},
                   "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
                    "spec":{"containers":[{"name":"main","image":"%s","env":[{"name":"SECRET","value":"s3cr3t"}]}]}}}}},
                  "topology":{"subsets":[{"name":"a"},{"name":"b"}]}}}""".formatted(image), UnitedDeployment.class);
    }

    @Test
    void revisionIsStableAndFollowsTheTemplate() {
        assertEquals(UnitedDeploymentSnapshot.revisionOf(ud("web:1")), UnitedDeploymentSnapshot.revisionOf(ud("web:1")));
        assertNotEquals(UnitedDeploymentSnapshot.revisionOf(ud("web:1")), UnitedDeploymentSnapshot.revisionOf(ud("web:2")));
        assertTrue(UnitedDeploymentSnapshot.revisionOf(ud("web:1")).startsWith("web-"));
    }

    @Test
    void readsACloneSetSubsetAsThePlannerSeesIt() {
        UnitedDeployment ud = ud("web:1");
        String revision = UnitedDeploymentSnapshot.revisionOf(ud);
        CloneSet built = ApiJson.serialization().convertValue(SubsetWorkloads.build(ud, "a", revision, 3, 1),
                CloneSet.class);
        built.getMetadata().setName("web-a-xyz12");
        built.setStatus(ApiJson.serialization().unmarshal("{\"replicas\":3,\"readyReplicas\":2,\"updatedReplicas\":1,"
                + "\"updatedReadyReplicas\":1}", dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus.class));
        UnitedDeploymentSnapshot snapshot = UnitedDeploymentSnapshot.read(ud, List.of(built));
        assertEquals(List.of(new SubsetWorkload("web-a-xyz12", SubsetWorkloads.Kind.CLONE_SET, "a", revision, "", 3, 1,
                3, 2, 1, 1)), snapshot.workloads());
        assertEquals(Map.of("web-a-xyz12", built), snapshot.cloneSets());
        // The planner then keeps subset a (only replicas differ) and creates b.
        UnitedDeploymentPlan plan = UnitedDeploymentPlanner.plan(ud.spec(), revision, snapshot.workloads());
        assertEquals(Map.of("a", 2, "b", 2), plan.nextReplicas());
        assertEquals("replicas", plan.updates().get(0).reason());
        assertEquals("b", plan.creates().get(0).subset());
    }

    @Test
    void debugSummaryShowsNamesCountsAndReasonsOnly() {
        UnitedDeployment ud = ud("web:1");
        UnitedDeploymentPlan plan = UnitedDeploymentPlanner.plan(ud.spec(), "r1", List.of());
        PlanSummary summary = UnitedDeploymentSnapshot.debugSummary(plan);
        assertEquals(2L, summary.counts().get("creates"));
        String shown = summary.toString();
        assertTrue(shown.contains("create subset a"), shown);
        assertFalse(shown.contains("s3cr3t") || shown.contains("web:1"), shown);
        ud.spec().setReplicas(null);
        ud.spec().topology().subsets().get(0).setReplicas(new io.fabric8.kubernetes.api.model.IntOrString(1));
        PlanSummary failed = UnitedDeploymentSnapshot.debugSummary(UnitedDeploymentPlanner.plan(ud.spec(), "r1", List.of()));
        assertTrue(failed.toString().contains("cannot allocate replicas"), failed.toString());
    }

    @Test
    void aCloneSetsUpdatedCountsCountOnlyOnceItCarriesTheRevisionAndHasObservedItsSpec() {
        UnitedDeployment ud = ud("web:2");
        String revision = UnitedDeploymentSnapshot.revisionOf(ud);
        CloneSet c = ApiJson.serialization().convertValue(SubsetWorkloads.build(ud, "a", revision, 2, 0), CloneSet.class);
        c.getMetadata().setName("web-a-xyz12");
        c.getMetadata().setGeneration(3L);
        // Its status still counts the pods of the template before the change as updated.
        c.setStatus(ApiJson.serialization().unmarshal("{\"observedGeneration\":2,\"replicas\":2,\"readyReplicas\":2,"
                + "\"updatedReplicas\":2,\"updatedReadyReplicas\":2}", dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus.class));
        SubsetWorkload stale = UnitedDeploymentSnapshot.read(ud, List.of(c)).workloads().get(0);
        assertEquals(0, stale.updatedReplicas());
        assertEquals(0, stale.updatedReadyReplicas());
        assertEquals(2, stale.readyReplicas());
        c.getStatus().setObservedGeneration(3);
        assertEquals(2, UnitedDeploymentSnapshot.read(ud, List.of(c)).workloads().get(0).updatedReadyReplicas());
        // Not yet patched to the new revision: nothing counts as updated to it.
        assertEquals(0, UnitedDeploymentSnapshot.read(ud("web:3"), List.of(c)).workloads().get(0).updatedReplicas());
    }
}
