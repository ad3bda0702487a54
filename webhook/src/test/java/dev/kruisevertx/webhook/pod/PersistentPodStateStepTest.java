package dev.kruisevertx.webhook.pod;

import dev.kruisevertx.api.apps.v1alpha1.NodeTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateSpec;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateStatus;
import dev.kruisevertx.api.apps.v1alpha1.PodState;
import dev.kruisevertx.api.apps.v1alpha1.PreferredTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.persistentpodstate.PersistentPodStateLookup;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pod step 6 (OpenKruise v1.9.0's persistent_pod_state_test.go cases as facts, plus the owner, whitelist, operation
 * and recorded-state conditions around it).
 */
class PersistentPodStateStepTest {
    static final String ZONE = "topology.kubernetes.io/zone";
    static final String HOST = "kubernetes.io/hostname";

    /** OpenKruise's ppsDemo: zone required, hostname preferred with weight 10, a state for test-pod. */
    static PersistentPodState pps() {
        PersistentPodState p = new PersistentPodState();
        p.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("test-kruise-sts")
                .withNamespace("ns-test").build());
        PersistentPodStateSpec spec = new PersistentPodStateSpec();
        spec.setTargetReference(new TargetReference("apps.kruise.io/v1beta1", "StatefulSet", "test-kruise-sts"));
        spec.setRequiredPersistentTopology(new NodeTopologyTerm(List.of(ZONE)));
        spec.setPreferredPersistentTopology(List.of(new PreferredTopologyTerm(10, new NodeTopologyTerm(List.of(HOST)))));
        p.setSpec(spec);
        PersistentPodStateStatus status = new PersistentPodStateStatus();
        status.setPodStates(new HashMap<>(Map.of("test-pod", new PodState(null,
                Map.of(ZONE, "cn-beijing-a", HOST, "kube-resource011162007216"), null))));
        p.setStatus(status);
        return p;
    }

    /** OpenKruise's podDemo: owned by the Advanced StatefulSet, its own required and preferred node affinity. */
    static Pod pod(String ownerApiVersion, String ownerKind, String ownerName) {
        return new PodBuilder().withNewMetadata().withNamespace("ns-test").withName("test-pod")
                .addNewOwnerReference().withApiVersion(ownerApiVersion).withKind(ownerKind).withName(ownerName)
                .withUid("u").withController(true).endOwnerReference().endMetadata()
                .withNewSpec().addNewContainer().withName("nginx").withImage("nginx:1.15.1").endContainer()
                .withNewAffinity().withNewNodeAffinity().withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm().addNewMatchExpression().withKey("node/gpu").withOperator("Exists")
                .endMatchExpression().endNodeSelectorTerm().endRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewPreferredDuringSchedulingIgnoredDuringExecution().withWeight(5).withNewPreference()
                .addNewMatchExpression().withKey("test-key").withOperator("Exists").endMatchExpression().endPreference()
                .endPreferredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity().endSpec().build();
    }

    static Pod demoPod() {
        return pod("apps.kruise.io/v1beta1", "StatefulSet", "test-kruise-sts");
    }

    static AdmissionRequest request(String operation) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "", "v1", "Pod", "pods", "", "test-pod", "ns-test",
                operation, null, null, false, null);
    }

    static PersistentPodStateLookup lookup(PersistentPodState... in) {
        return PersistentPodStateLookup.of(ns -> "ns-test".equals(ns) ? List.of(in) : List.of(),
                () -> CustomWorkloadWhiteList.EMPTY);
    }

    static Pod run(PersistentPodStateLookup lookup, String operation, Pod pod) {
        new PersistentPodStateStep(lookup).mutate(request(operation), pod);
        return pod;
    }

    static String json(Pod pod) {
        return ApiJson.toJson(pod);
    }

    @Test
    void matchedStateInjectsRequiredAndPreferredAfterThePodsOwn() {
        Pod out = run(lookup(pps()), "CREATE", demoPod());
        assertEquals(Map.of(ZONE, "cn-beijing-a"), out.getSpec().getNodeSelector());
        assertEquals("test-kruise-sts", out.getMetadata().getAnnotations().get(PersistentPodState.INJECTED_ANNOTATION));
        var preferred = out.getSpec().getAffinity().getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution();
        assertEquals(2, preferred.size());
        assertEquals(5, preferred.get(0).getWeight());
        assertEquals(10, preferred.get(1).getWeight());
        assertEquals(HOST, preferred.get(1).getPreference().getMatchExpressions().get(0).getKey());
        assertEquals("In", preferred.get(1).getPreference().getMatchExpressions().get(0).getOperator());
        assertEquals(List.of("kube-resource011162007216"),
                preferred.get(1).getPreference().getMatchExpressions().get(0).getValues());
        assertEquals("node/gpu", out.getSpec().getAffinity().getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms().get(0).getMatchExpressions()
                .get(0).getKey());
    }

    @Test
    void noMatchedPersistentPodStateLeavesThePodAlone() {
        String before = json(pod("apps.kruise.io/v1beta1", "StatefulSet", "no-found"));
        assertEquals(before, json(run(lookup(pps()), "CREATE", pod("apps.kruise.io/v1beta1", "StatefulSet",
                "no-found"))));
    }

    @Test
    void anotherVersionOfTheSameWorkloadMatches() {
        Pod out = run(lookup(pps()), "CREATE", pod("apps.kruise.io/v1alpha1", "StatefulSet", "test-kruise-sts"));
        assertEquals(Map.of(ZONE, "cn-beijing-a"), out.getSpec().getNodeSelector());
    }

    @Test
    void anAppsV1StatefulSetIsServedToo() {
        PersistentPodState p = pps();
        p.getSpec().setTargetReference(new TargetReference("apps/v1", "StatefulSet", "test-kruise-sts"));
        Pod out = run(lookup(p), "CREATE", pod("apps/v1", "StatefulSet", "test-kruise-sts"));
        assertEquals(Map.of(ZONE, "cn-beijing-a"), out.getSpec().getNodeSelector());
    }

    @Test
    void aPodOfADifferentGroupDoesNotMatch() {
        Pod out = run(lookup(pps()), "CREATE", pod("apps/v1", "StatefulSet", "test-kruise-sts"));
        assertNull(out.getMetadata().getAnnotations().get(PersistentPodState.INJECTED_ANNOTATION));
    }

    @Test
    void aCloneSetPodIsNotServed() {
        PersistentPodState p = pps();
        p.getSpec().setTargetReference(new TargetReference("apps.kruise.io/v1alpha1", "CloneSet", "test-kruise-sts"));
        Pod out = run(lookup(p), "CREATE", pod("apps.kruise.io/v1alpha1", "CloneSet", "test-kruise-sts"));
        assertNull(out.getMetadata().getAnnotations().get(PersistentPodState.INJECTED_ANNOTATION));
    }

    @Test
    void aWhitelistedWorkloadsPodIsServed() {
        PersistentPodState p = pps();
        p.getSpec().setTargetReference(new TargetReference("game.kruise.io/v1alpha1", "GameServerSet", "gss"));
        PersistentPodStateLookup l = PersistentPodStateLookup.of(ns -> List.of(p), () -> CustomWorkloadWhiteList
                .parse("{\"workloads\":[{\"Group\":\"game.kruise.io\",\"Kind\":\"GameServerSet\"}]}"));
        Pod out = run(l, "CREATE", pod("game.kruise.io/v1alpha1", "GameServerSet", "gss"));
        assertEquals(Map.of(ZONE, "cn-beijing-a"), out.getSpec().getNodeSelector());
    }

    @Test
    void aPodWithoutAControllerIsNotServed() {
        Pod bare = demoPod();
        bare.getMetadata().getOwnerReferences().get(0).setController(false);
        assertNull(run(lookup(pps()), "CREATE", bare).getMetadata().getAnnotations()
                .get(PersistentPodState.INJECTED_ANNOTATION));
    }

    @Test
    void aFirstCreationWithoutStateIsNotChanged() {
        Pod other = demoPod();
        other.getMetadata().setName("test-pod-2");
        String before = json(other);
        assertEquals(before, json(run(lookup(pps()), "CREATE", other)));
    }

    @Test
    void aStateWithoutTopologyLabelsInjectsNothing() {
        PersistentPodState p = pps();
        p.getStatus().getPodStates().put("test-pod", new PodState("n", null, Map.of("ip", "1.2.3.4")));
        assertNull(run(lookup(p), "CREATE", demoPod()).getMetadata().getAnnotations()
                .get(PersistentPodState.INJECTED_ANNOTATION));
    }

    @Test
    void onlyCreationsAreMutated() {
        assertNull(run(lookup(pps()), "UPDATE", demoPod()).getMetadata().getAnnotations()
                .get(PersistentPodState.INJECTED_ANNOTATION));
    }

    @Test
    void aPersistentPodStateBeingDeletedIsIgnored() {
        PersistentPodState p = pps();
        p.getMetadata().setDeletionTimestamp("2026-11-24T00:00:00Z");
        assertNull(run(lookup(p), "CREATE", demoPod()).getMetadata().getAnnotations()
                .get(PersistentPodState.INJECTED_ANNOTATION));
    }

    @Test
    void aRequiredKeyOverridesThePodsOwnSelectorValue() {
        Pod own = demoPod();
        own.getSpec().setNodeSelector(new HashMap<>(Map.of(ZONE, "elsewhere", "disk", "ssd")));
        assertEquals(Map.of(ZONE, "cn-beijing-a", "disk", "ssd"), run(lookup(pps()), "CREATE", own).getSpec()
                .getNodeSelector());
    }

    @Test
    void anUnreadableWhitelistFailsThePodWithItsReason() {
        PersistentPodStateLookup broken = PersistentPodStateLookup.of(ns -> List.of(pps()),
                () -> CustomWorkloadWhiteList.parse("[", "PPS_Watch_Custom_Workload_WhiteList"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> run(broken, "CREATE", demoPod()));
        assertTrue(e.getMessage().contains("PPS_Watch_Custom_Workload_WhiteList"), e.getMessage());
    }

    @Test
    void thePipelineRunsTheStepAtStageSix() {
        PodMutatingPipeline pipeline = new PodMutatingPipeline();
        pipeline.register(PodMutationStage.PERSISTENT_POD_STATE, new PersistentPodStateStep(lookup(pps())));
        assertEquals(List.of(PodMutationStage.PERSISTENT_POD_STATE), pipeline.stages());
    }
}
