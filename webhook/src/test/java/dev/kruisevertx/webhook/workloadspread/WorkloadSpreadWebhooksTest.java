package dev.kruisevertx.webhook.workloadspread;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.WebhookDependencies;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The WorkloadSpread admission handler: gate, answers as OpenKruise gives them, the namespace's other spreads. */
class WorkloadSpreadWebhooksTest {
    static ObjectNode demo() throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(WorkloadSpreadValidationTest.DEMO);
    }

    static AdmissionRequest request(String operation, ObjectNode object, ObjectNode old) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1alpha1", "WorkloadSpread",
                "workloadspreads", "", object.path("metadata").path("name").asText(), "default", operation, object,
                old, false, null);
    }

    static AdmissionResponse answer(boolean gate, WorkloadSpreadLookup lookup, AdmissionRequest r) throws Exception {
        return WorkloadSpreadWebhooks.validating(gate, lookup).handle(r).toCompletionStage().toCompletableFuture()
                .get();
    }

    @Test
    void aValidWorkloadSpreadIsAllowed() throws Exception {
        assertTrue(answer(true, WorkloadSpreadLookup.NONE, request("CREATE", demo(), null)).allowed());
    }

    @Test
    void invalidOnesGet400WithTheAggregatedFieldErrors() throws Exception {
        ObjectNode bad = demo();
        ((ObjectNode) bad.path("spec")).remove("targetRef");
        ((ObjectNode) bad.path("spec").path("subsets").get(0)).put("name", "");
        AdmissionResponse r = answer(true, WorkloadSpreadLookup.NONE, request("CREATE", bad, null));
        assertFalse(r.allowed());
        assertEquals(400, r.code());
        assertEquals("[spec.targetRef: Required value: no targetRef defined in WorkloadSpread, "
                + "spec.subsets[0].name: Invalid value: \"\"]", r.message());
    }

    @Test
    void theGateOffRefusesEveryRequestWith403() throws Exception {
        AdmissionResponse r = answer(false, WorkloadSpreadLookup.NONE, request("CREATE", demo(), null));
        assertFalse(r.allowed());
        assertEquals(403, r.code());
        assertEquals("feature-gate WorkloadSpread is not enabled", r.message());
    }

    @Test
    void theOtherSpreadsOfTheRequestsNamespaceAreChecked() throws Exception {
        ObjectNode other = demo();
        ((ObjectNode) other.path("metadata")).put("name", "earlier");
        WorkloadSpread earlier = Json.toModel(other, WorkloadSpread.class);
        List<String> asked = new java.util.ArrayList<>();
        WorkloadSpreadLookup lookup = WorkloadSpreadLookup.of(ns -> {
            asked.add(ns);
            return List.of(earlier);
        });
        AdmissionResponse r = answer(true, lookup, request("CREATE", demo(), null));
        assertEquals(List.of("default"), asked);
        assertFalse(r.allowed());
        assertTrue(r.message().endsWith("ws.spec.targetRef is in conflict with other WorkloadSpread earlier"),
                r.message());
        ObjectNode update = demo();
        assertTrue(answer(true, lookup, request("UPDATE", demo(), update)).allowed() == false,
                "an update is checked against the others as well");
    }

    @Test
    void anUpdateMayNotRetarget() throws Exception {
        ObjectNode changed = demo();
        ((ObjectNode) changed.path("spec").path("targetRef")).put("name", "other");
        AdmissionResponse r = answer(true, WorkloadSpreadLookup.NONE, request("UPDATE", changed, demo()));
        assertFalse(r.allowed());
        assertTrue(r.message().endsWith("change TargetReference is not permitted for WorkloadSpread"), r.message());
    }

    @Test
    void aWrongFieldTypeIsDeniedWithTheField() throws Exception {
        ObjectNode bad = demo();
        ((ObjectNode) bad.path("spec")).putObject("scheduleStrategy").putArray("type");
        AdmissionResponse r = answer(true, WorkloadSpreadLookup.NONE, request("CREATE", bad, null));
        assertFalse(r.allowed());
        assertTrue(r.code() < 500, r.toString());
        assertNotNull(r.message());
    }

    @Test
    void registeredWithTheOtherWebhooksAndTheGateDefaultsOn() throws Exception {
        AdmissionRegistry registry = new AdmissionRegistry();
        KruiseWebhooks.registerAll(registry, WebhookDependencies.of(FeatureGates.parse("", Map.of())));
        assertTrue(registry.paths().contains(WorkloadSpreadWebhooks.VALIDATE_PATH), registry.paths().toString());
        AdmissionResponse r = registry.find(WorkloadSpreadWebhooks.VALIDATE_PATH).orElseThrow().handle(request("CREATE", demo(),
                null)).toCompletionStage().toCompletableFuture().get();
        assertTrue(r.allowed());
    }
}
