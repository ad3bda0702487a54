package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.controller.PlanSummary;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the controller reads of a UnitedDeployment's subsets of every kind, and what its debug plan shows. */
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
    void readsACloneSetSubsetAsThePlannerSeesIt() {
        UnitedDeployment ud = ud("web:1");
        String revision = "web-rev1";
        CloneSet built = ApiJson.serialization().convertValue(SubsetWorkloads.build(ud, "a", revision, 3, 1),
                CloneSet.class);
        built.getMetadata().setName("web-a-xyz12");
        built.getMetadata().setGeneration(2L);
        built.setStatus(ApiJson.serialization().unmarshal("{\"observedGeneration\":2,\"replicas\":3,\"readyReplicas\":2,"
                + "\"updatedReplicas\":1,\"updatedReadyReplicas\":1}", dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus.class));
        UnitedDeploymentSnapshot snapshot = UnitedDeploymentSnapshot.read(List.of(), List.of(built), List.of());
        assertEquals(List.of(new SubsetWorkload("web-a-xyz12", SubsetWorkloads.Kind.CLONE_SET, "a", revision, "", 3, 1,
                3, 2, 1, 1)), snapshot.workloads(revision));
        assertEquals(Map.of("web-a-xyz12", SubsetWorkloads.Kind.CLONE_SET), snapshot.kinds());
        // Against a newer update revision none of its pods count as updated.
        assertEquals(0, snapshot.workloads("web-rev2").get(0).updatedReplicas());
        // Nor while the CloneSet controller has not seen its latest spec: its counts are for the previous template.
        built.getMetadata().setGeneration(3L);
        assertEquals(0, snapshot.workloads(revision).get(0).updatedReadyReplicas());
        built.getMetadata().setGeneration(2L);
        // The planner then keeps subset a (only replicas differ) and creates b.
        UnitedDeploymentPlan plan = UnitedDeploymentPlanner.plan(ud.spec(), revision, snapshot.workloads(revision));
        assertEquals(Map.of("a", 2, "b", 2), plan.nextReplicas());
        assertEquals("replicas", plan.updates().get(0).reason());
        assertEquals("b", plan.creates().get(0).subset());
    }

    static Pod pod(String name, String subset, String revision, boolean ready) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .withLabels(Map.of("app", "web", UnitedDeployment.SUBSET_NAME_LABEL, subset,
                        UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL, revision)).endMetadata()
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready")
                .withStatus(ready ? "True" : "False").endCondition().endStatus().build();
    }

    @Test
    void readsEveryKindWithItsPartitionAndCountsUpdatedPodsOfStatefulSetsAndDeployments() {
        UnitedDeployment ud = ud("web:1");
        StatefulSet sts = new StatefulSetBuilder().withNewMetadata().withName("web-a-1").withNamespace("ns")
                .withLabels(Map.of(UnitedDeployment.SUBSET_NAME_LABEL, "a",
                        UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL, "web-r2"))
                .withAnnotations(Map.of(UnitedDeployment.SUBSET_PATCH_ANNOTATION, "")).endMetadata()
                .withNewSpec().withReplicas(3).withNewSelector().withMatchLabels(Map.of("app", "web",
                        UnitedDeployment.SUBSET_NAME_LABEL, "a")).endSelector()
                .withNewUpdateStrategy().withNewRollingUpdate().withPartition(1).endRollingUpdate().endUpdateStrategy()
                .endSpec().withNewStatus().withReplicas(2).withReadyReplicas(3).withUpdatedReplicas(2).endStatus().build();
        Deployment deploy = new DeploymentBuilder().withNewMetadata().withName("web-b-1").withNamespace("ns")
                .withLabels(Map.of(UnitedDeployment.SUBSET_NAME_LABEL, "b")).endMetadata()
                .withNewSpec().withReplicas(2).withNewSelector().withMatchLabels(Map.of("app", "web",
                        UnitedDeployment.SUBSET_NAME_LABEL, "b")).endSelector().endSpec()
                .withNewStatus().withReplicas(2).withReadyReplicas(1).endStatus().build();
        dev.kruisevertx.api.apps.v1beta1.StatefulSet asts = ApiJson.serialization().unmarshal("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet",
                 "metadata":{"name":"web-c-1","namespace":"ns","generation":5,"labels":{"apps.kruise.io/subset-name":"c",
                  "apps.kruise.io/controller-revision-hash":"web-r2"}},
                 "spec":{"replicas":4,"updateStrategy":{"rollingUpdate":{"partition":2}}},
                 "status":{"observedGeneration":5,"replicas":4,"readyReplicas":4,"updatedReplicas":2,
                  "updatedReadyReplicas":1}}""",
                dev.kruisevertx.api.apps.v1beta1.StatefulSet.class);
        List<Pod> pods = List.of(pod("a-0", "a", "web-r1", true), pod("a-1", "a", "web-r2", true),
                pod("a-2", "a", "web-r2", false), pod("b-0", "b", "web-r2", true), pod("b-1", "b", "web-r1", false),
                pod("x-0", "x", "web-r2", true));
        UnitedDeploymentSnapshot snapshot = UnitedDeploymentSnapshot.read(List.of(), List.of(sts, deploy, asts), pods);
        // The StatefulSet's status lags a recreated pod (2): its replicas are never fewer than its pods (3).
        assertEquals(List.of(
                new SubsetWorkload("web-a-1", SubsetWorkloads.Kind.STATEFUL_SET, "a", "web-r2", "", 3, 1, 3, 3, 2, 1),
                new SubsetWorkload("web-b-1", SubsetWorkloads.Kind.DEPLOYMENT, "b", null, null, 2, 0, 2, 1, 1, 1),
                new SubsetWorkload("web-c-1", SubsetWorkloads.Kind.ADVANCED_STATEFUL_SET, "c", "web-r2", null, 4, 2, 4,
                        4, 2, 1)), snapshot.workloads("web-r2"));
        assertEquals(Map.of("web-a-1", SubsetWorkloads.Kind.STATEFUL_SET, "web-b-1", SubsetWorkloads.Kind.DEPLOYMENT,
                "web-c-1", SubsetWorkloads.Kind.ADVANCED_STATEFUL_SET), snapshot.kinds());
        // The template makes CloneSets: every one of these is of the wrong kind and goes.
        UnitedDeploymentPlan plan = UnitedDeploymentPlanner.plan(ud.spec(), "web-r2", snapshot.workloads("web-r2"));
        assertEquals(3, plan.deletes().size());
        assertTrue(plan.deletes().stream().allMatch(d -> "kind changed".equals(d.reason())));
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
        String revision = "web-6d5f8b7c9";
        CloneSet c = ApiJson.serialization().convertValue(SubsetWorkloads.build(ud, "a", revision, 2, 0), CloneSet.class);
        c.getMetadata().setName("web-a-xyz12");
        c.getMetadata().setGeneration(3L);
        // Its status still counts the pods of the template before the change as updated.
        c.setStatus(ApiJson.serialization().unmarshal("{\"observedGeneration\":2,\"replicas\":2,\"readyReplicas\":2,"
                + "\"updatedReplicas\":2,\"updatedReadyReplicas\":2}", dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus.class));
        SubsetWorkload stale = UnitedDeploymentSnapshot.read(List.of(), List.of(c), List.of()).workloads(revision).get(0);
        assertEquals(0, stale.updatedReplicas());
        assertEquals(0, stale.updatedReadyReplicas());
        assertEquals(2, stale.readyReplicas());
        c.getStatus().setObservedGeneration(3);
        assertEquals(2, UnitedDeploymentSnapshot.read(List.of(), List.of(c), List.of()).workloads(revision).get(0).updatedReadyReplicas());
        // Not yet patched to the new revision: nothing counts as updated to it.
        assertEquals(0, UnitedDeploymentSnapshot.read(List.of(), List.of(c), List.of()).workloads("web-7e6a9c8d0").get(0).updatedReplicas());
    }
}
