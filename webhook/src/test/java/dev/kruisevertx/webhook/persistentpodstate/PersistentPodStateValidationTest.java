package dev.kruisevertx.webhook.persistentpodstate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.NodeTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodAnnotation;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateSpec;
import dev.kruisevertx.api.apps.v1alpha1.PreferredTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenKruise v1.9.0's persistent_validating_test.go ported as facts (its ppsDemo, same number of errors), the
 * handler's answers, and the checks this project adds.
 */
class PersistentPodStateValidationTest {
    /** OpenKruise's ppsDemo: apps/v1 StatefulSet statefulset-test, zone required, hostname preferred (100). */
    static PersistentPodState demo() {
        PersistentPodState pps = new PersistentPodState();
        pps.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName("per-test").build());
        PersistentPodStateSpec spec = new PersistentPodStateSpec();
        spec.setTargetReference(new TargetReference("apps/v1", "StatefulSet", "statefulset-test"));
        spec.setRequiredPersistentTopology(new NodeTopologyTerm(List.of("topology.kubernetes.io/zone")));
        spec.setPreferredPersistentTopology(List.of(new PreferredTopologyTerm(100,
                new NodeTopologyTerm(List.of("kubernetes.io/hostname")))));
        pps.setSpec(spec);
        return pps;
    }

    static PersistentPodState named(String name, String namespace, TargetReference ref) {
        PersistentPodState p = demo();
        p.getMetadata().setName(name);
        p.getMetadata().setNamespace(namespace);
        p.getSpec().setTargetReference(ref);
        return p;
    }

    static List<FieldError> validate(PersistentPodState pps, PersistentPodState old, List<PersistentPodState> others) {
        return PersistentPodStateValidation.validate(pps, old, others, CustomWorkloadWhiteList.EMPTY);
    }

    // TestValidatingPer
    @Test
    void validTargetReference() {
        assertEquals(List.of(), validate(demo(), null, List.of()));
    }

    @Test
    void emptyTargetReferenceGivesTwoErrors() {
        PersistentPodState p = demo();
        p.getSpec().setTargetReference(new TargetReference());
        List<FieldError> errors = validate(p, null, List.of());
        assertEquals(2, errors.size(), errors.toString());
        assertEquals("spec.TargetReference: Invalid value: {\"apiVersion\":\"\",\"kind\":\"\",\"name\":\"\"}: empty "
                + "TargetReference is not valid for PersistentPodState.", errors.get(0).toString());
        assertTrue(errors.get(1).toString().endsWith(PersistentPodStateValidation.WHITELIST_TEXT), errors.toString());
    }

    @Test
    void deploymentTargetGivesOneError() {
        PersistentPodState p = demo();
        p.getSpec().setTargetReference(new TargetReference("apps/v1", "Deployment", "test"));
        assertEquals(1, validate(p, null, List.of()).size());
    }

    @Test
    void neitherTopologyGivesOneError() {
        PersistentPodState p = demo();
        p.getSpec().setRequiredPersistentTopology(null);
        p.getSpec().setPreferredPersistentTopology(null);
        List<FieldError> errors = validate(p, null, List.of());
        assertEquals(1, errors.size());
        assertTrue(errors.get(0).toString().endsWith("TopologyConstraint and TopologyPreference cannot be empty at "
                + "the same time"), errors.toString());
    }

    // TestPerConflictWithOthers
    @Test
    void othersOnOtherWorkloadsDoNotConflict() {
        assertEquals(List.of(), validate(demo(), null, List.of(
                named("pps1", "default", new TargetReference("apps/v1", "StatefulSet", "statefulset-test1")),
                named("pps2", "default", new TargetReference("apps/v1", "StatefulSet", "statefulset-test2")))));
    }

    @Test
    void anotherOnTheSameWorkloadConflicts() {
        List<FieldError> errors = validate(demo(), null, List.of(
                named("pps1", "default", new TargetReference("apps/v1", "StatefulSet", "statefulset-test")),
                named("pps2", "default", new TargetReference("apps/v1", "StatefulSet", "statefulset-test2"))));
        assertEquals(1, errors.size());
        assertTrue(errors.get(0).toString().endsWith("targetReference is in conflict with other PersistentPodState "
                + "pps1"), errors.toString());
    }

    @Test
    void anotherVersionOfTheSameGroupConflictsToo() {
        PersistentPodState p = demo();
        p.getSpec().setTargetReference(new TargetReference("apps.kruise.io/v1beta1", "StatefulSet", "web"));
        assertEquals(1, validate(p, null, List.of(named("other", "default",
                new TargetReference("apps.kruise.io/v1alpha1", "StatefulSet", "web")))).size());
    }

    @Test
    void itselfIsNoConflict() {
        assertEquals(List.of(), validate(demo(), null, List.of(demo())));
    }

    // TestValidatingUpdatePer
    @Test
    void updateWithTheSameTargetIsValid() {
        assertEquals(List.of(), validate(demo(), demo(), List.of()));
    }

    @Test
    void updateChangingTheTargetGivesOneError() {
        PersistentPodState p = demo();
        p.getSpec().setTargetReference(new TargetReference("apps/v1", "StatefulSet", "statefulset-changed"));
        List<FieldError> errors = validate(p, demo(), List.of());
        assertEquals(1, errors.size());
        assertEquals("spec.targetRef: Required value: targetRef cannot be modified", errors.get(0).toString());
    }

    @Test
    void whitelistedWorkloadsAreAccepted() {
        PersistentPodState p = demo();
        p.getSpec().setTargetReference(new TargetReference("game.kruise.io/v1alpha1", "GameServerSet", "gss"));
        assertEquals(1, validate(p, null, List.of()).size());
        assertEquals(List.of(), PersistentPodStateValidation.validate(p, null, List.of(), CustomWorkloadWhiteList
                .fromConfigMapData(java.util.Map.of("PPS_Watch_Custom_Workload_WhiteList",
                        "{\"workloads\":[{\"Group\":\"game.kruise.io\",\"Kind\":\"GameServerSet\"}]}"),
                        "PPS_Watch_Custom_Workload_WhiteList")));
    }

    // Stricter than OpenKruise.
    @Test
    void weightsOutsideOneToHundredAreRefused() {
        for (int w : new int[] {0, -5, 101, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            PersistentPodState p = demo();
            p.getSpec().getPreferredPersistentTopology().get(0).setWeight(w);
            List<FieldError> errors = validate(p, null, List.of());
            assertEquals(1, errors.size(), "weight " + w);
            assertTrue(errors.get(0).toString().startsWith("spec.preferredPersistentTopology[0].weight: Invalid value: "
                    + w + ": must be in the range 1-100"), errors.toString());
        }
    }

    @Test
    void topologyKeysMustBeLabelKeys() {
        PersistentPodState p = demo();
        p.getSpec().setRequiredPersistentTopology(new NodeTopologyTerm(List.of("ok/zone", "bad key", "")));
        List<FieldError> errors = validate(p, null, List.of());
        assertEquals(2, errors.size(), errors.toString());
        assertTrue(errors.get(0).toString().startsWith("spec.requiredPersistentTopology.nodeTopologyKeys[1]"));
    }

    @Test
    void tooManyKeysAreOneError() {
        PersistentPodState p = demo();
        p.getSpec().setRequiredPersistentTopology(new NodeTopologyTerm(Collections.nCopies(100_000, "bad key")));
        List<FieldError> errors = validate(p, null, List.of());
        assertEquals(1, errors.size(), errors.toString());
    }

    @Test
    void unknownRetentionPolicyAndEmptyAnnotationKeysAreRefused() {
        PersistentPodState p = demo();
        p.getSpec().setPersistentPodStateRetentionPolicy("Never");
        p.getSpec().setPersistentPodAnnotations(new ArrayList<>(List.of(new PersistentPodAnnotation(""))));
        List<FieldError> errors = validate(p, null, List.of());
        assertEquals(2, errors.size(), errors.toString());
        assertTrue(errors.toString().contains("spec.persistentPodStateRetentionPolicy: Unsupported value: \"Never\": "
                + "supported values: \"WhenScaled\", \"WhenDeleted\""), errors.toString());
    }

    // The handler.
    static AdmissionRequest request(String operation, PersistentPodState obj, PersistentPodState old) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1alpha1", "PersistentPodState",
                "persistentpodstates", "", obj.getMetadata().getName(), "default", operation, tree(obj),
                old == null ? null : tree(old), false, null);
    }

    static ObjectNode tree(PersistentPodState p) {
        p.setApiVersion(PersistentPodState.API_VERSION);
        p.setKind(PersistentPodState.KIND);
        return (ObjectNode) Json.MAPPER.valueToTree(ApiJson.serialization().convertValue(p, Object.class));
    }

    static AdmissionResponse answer(PersistentPodStateLookup lookup, AdmissionRequest r) throws Exception {
        return PersistentPodStateWebhooks.validating(lookup).handle(r).toCompletionStage().toCompletableFuture().get();
    }

    @Test
    void handlerAllowsAValidOneAndRefusesAConflictWith400() throws Exception {
        assertTrue(answer(PersistentPodStateLookup.NONE, request("CREATE", demo(), null)).allowed());
        PersistentPodStateLookup withOther = PersistentPodStateLookup.of(ns -> "default".equals(ns)
                ? List.of(named("other", "default", demo().getSpec().getTargetReference())) : List.of(),
                () -> CustomWorkloadWhiteList.EMPTY);
        AdmissionResponse r = answer(withOther, request("CREATE", demo(), null));
        assertFalse(r.allowed());
        assertEquals(400, r.code());
        assertTrue(r.message().endsWith("targetReference is in conflict with other PersistentPodState other"),
                r.message());
    }

    @Test
    void handlerChecksTheTargetOnUpdate() throws Exception {
        PersistentPodState changed = demo();
        changed.getSpec().setTargetReference(new TargetReference("apps/v1", "StatefulSet", "x"));
        AdmissionResponse r = answer(PersistentPodStateLookup.NONE, request("UPDATE", changed, demo()));
        assertEquals("spec.targetRef: Required value: targetRef cannot be modified", r.message());
    }

    @Test
    void anUnreadableWhitelistIsAnInternalError() throws Exception {
        PersistentPodStateLookup broken = PersistentPodStateLookup.of(ns -> List.of(),
                () -> CustomWorkloadWhiteList.parse("not json", "PPS_Watch_Custom_Workload_WhiteList"));
        AdmissionResponse r = answer(broken, request("CREATE", demo(), null));
        assertEquals(500, r.code());
        assertTrue(r.message().startsWith("failed to get persistent pod state config white list, error: ConfigMap "
                + "kruise-configuration entry PPS_Watch_Custom_Workload_WhiteList is invalid"), r.message());
    }

    @Test
    void aWrongTypeIsRefusedWhenDecoding() throws Exception {
        ObjectNode obj = tree(demo());
        ((ObjectNode) obj.path("spec").path("preferredPersistentTopology").get(0)).put("weight", "heavy");
        AdmissionResponse r = answer(PersistentPodStateLookup.NONE, new AdmissionRequest("admission.k8s.io/v1", "u",
                "apps.kruise.io", "v1alpha1", "PersistentPodState", "persistentpodstates", "", "per-test", "default",
                "CREATE", obj, null, false, null));
        assertFalse(r.allowed());
        // The project's decoder answers a wrong type as the API server would (422 naming the field).
        assertEquals(422, r.code());
        assertTrue(r.message().contains("weight"), r.message());
    }
}
