package dev.kruisevertx.webhook.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.zjsonpatch.JsonPatch;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PodMutatingPipelineTest {

    static Pod pod(String ownerApiVersion, boolean controller) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("p").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("nginx").endContainer().endSpec();
        if (ownerApiVersion != null) {
            b.editMetadata().addNewOwnerReference().withApiVersion(ownerApiVersion).withKind("CloneSet").withName("cs")
                    .withUid("u1").withController(controller).endOwnerReference().endMetadata();
        }
        return b.build();
    }

    static AdmissionRequest request(String op, Pod pod, String resource, String subResource) {
        ObjectNode obj = Json.toTree(pod);
        return new AdmissionRequest("admission.k8s.io/v1", "u", "", "v1", "Pod", resource, subResource, "p", "ns",
                op, obj, null, false, null);
    }

    static JsonNode apply(AdmissionRequest r, AdmissionResponse resp) {
        ArrayNode patch = resp.hasPatch() ? resp.patch() : Json.MAPPER.createArrayNode();
        return JsonPatch.apply(patch, r.object());
    }

    static AdmissionResponse run(PodMutatingPipeline p, AdmissionRequest r) throws Exception {
        return p.handle(r).toCompletionStage().toCompletableFuture().get();
    }

    @Test
    void podsOfKruiseWorkloadsGetTheReadinessGateOnCreate() throws Exception {
        PodMutatingPipeline p = PodWebhooks.register(new AdmissionRegistry(), false);
        AdmissionRequest r = request("CREATE", pod("apps.kruise.io/v1alpha1", true), "pods", "");
        JsonNode result = apply(r, run(p, r));
        assertEquals("KruisePodReady", result.path("spec").path("readinessGates").get(0).path("conditionType").asText());
        assertEquals("nginx", result.path("spec").path("containers").get(0).path("image").asText());
    }

    /** Issue 16 (hostile input): an undecodable pod is refused naming the field, never with Java class names. */
    @Test
    void anUndecodablePodIsRefusedWithAFieldMessage() throws Exception {
        PodMutatingPipeline p = PodWebhooks.register(new AdmissionRegistry(), false);
        AdmissionRequest valid = request("CREATE", pod("apps.kruise.io/v1alpha1", true), "pods", "");
        ObjectNode object = valid.object().deepCopy();
        ((ObjectNode) object.path("metadata")).put("ownerReferences", "");
        AdmissionRequest r = new AdmissionRequest("admission.k8s.io/v1", "u", "", "v1", "Pod", "pods", "", "p", "ns",
                "CREATE", object, null, false, null);
        AdmissionResponse resp = run(p, r);
        assertFalse(resp.allowed());
        assertEquals(400, resp.code());
        assertTrue(resp.message().startsWith("cannot decode the pod: metadata.ownerReferences: Invalid value"), resp.message());
        assertFalse(resp.message().contains("io.fabric8") || resp.message().contains("java."), resp.message());
    }

    @Test
    void otherPodsAndOtherOperationsAreLeftAlone() throws Exception {
        PodMutatingPipeline p = PodWebhooks.register(new AdmissionRegistry(), false);
        assertFalse(run(p, request("CREATE", pod("apps/v1", true), "pods", "")).hasPatch(), "not a kruise owner");
        assertFalse(run(p, request("CREATE", pod("apps.kruise.io/v1beta1", false), "pods", "")).hasPatch(), "not the controller");
        assertFalse(run(p, request("CREATE", pod(null, false), "pods", "")).hasPatch(), "no owner");
        assertFalse(run(p, request("UPDATE", pod("apps.kruise.io/v1alpha1", true), "pods", "")).hasPatch(), "UPDATE");
        assertFalse(run(p, request("CREATE", pod("apps.kruise.io/v1alpha1", true), "pods", "status")).hasPatch(), "sub-resource");
    }

    @Test
    void gateKruisePodReadinessGateCoversAllPodsAndTheGateIsNotDuplicated() throws Exception {
        PodMutatingPipeline p = PodWebhooks.register(new AdmissionRegistry(), true);
        AdmissionRequest r = request("CREATE", pod(null, false), "pods", "");
        JsonNode once = apply(r, run(p, r));
        assertEquals(1, once.path("spec").path("readinessGates").size());
        Pod already = Json.toModel(once, Pod.class);
        assertFalse(run(p, request("CREATE", already, "pods", "")).hasPatch());
    }

    @Test
    void stepsRunInOpenKruiseOrderWhateverTheRegistrationOrder() throws Exception {
        List<String> order = new ArrayList<>();
        PodMutatingPipeline p = new PodMutatingPipeline()
                .register(PodMutationStage.PERSISTENT_POD_STATE, (r, pod) -> order.add("pps"))
                .register(PodMutationStage.SIDECARSET, (r, pod) -> order.add("sidecar"))
                .register(PodMutationStage.CONTAINER_LAUNCH_PRIORITY, (r, pod) -> order.add("priority"))
                .register(PodMutationStage.READINESS_GATE, (r, pod) -> order.add("gate"));
        run(p, request("CREATE", pod(null, false), "pods", ""));
        assertEquals(List.of("gate", "sidecar", "priority", "pps"), order);
        assertEquals(List.of(PodMutationStage.READINESS_GATE, PodMutationStage.SIDECARSET,
                PodMutationStage.CONTAINER_LAUNCH_PRIORITY, PodMutationStage.PERSISTENT_POD_STATE), p.stages());
        assertThrows(IllegalArgumentException.class, () -> p.register(PodMutationStage.SIDECARSET, (r, pod) -> { }));
    }

    @Test
    void aFailingStepRejectsWithItsMessageAndNamespaceIsFilledIn() throws Exception {
        String[] seenNamespace = new String[1];
        PodMutatingPipeline p = new PodMutatingPipeline()
                .register(PodMutationStage.READINESS_GATE, (r, pod) -> seenNamespace[0] = pod.getMetadata().getNamespace())
                .register(PodMutationStage.SIDECARSET, (r, pod) -> {
                    throw new IllegalStateException("sidecarset cache not synced");
                });
        AdmissionResponse resp = run(p, request("CREATE", pod(null, false), "pods", ""));
        assertFalse(resp.allowed());
        assertTrue(resp.message().contains("SIDECARSET failed: sidecarset cache not synced"), resp.message());
        assertEquals("ns", seenNamespace[0]);
    }
}
