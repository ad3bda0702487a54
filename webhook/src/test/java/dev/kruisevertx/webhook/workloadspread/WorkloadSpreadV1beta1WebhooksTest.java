package dev.kruisevertx.webhook.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1beta1.WorkloadSpreadConversion;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The WorkloadSpread webhook and {@code /convert} for v1beta1 objects: judged in their stored v1alpha1 form with the
 * same rules, errors spelled with the v1beta1 field names, the namespace's (stored) spreads checked the same way.
 */
class WorkloadSpreadV1beta1WebhooksTest {
    static ObjectNode betaDemo() throws Exception {
        return WorkloadSpreadConversion.toV1beta1(WorkloadSpreadWebhooksTest.demo());
    }

    static AdmissionRequest request(String operation, ObjectNode object, ObjectNode old) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1beta1", "WorkloadSpread",
                "workloadspreads", "", object.path("metadata").path("name").asText(), "default", operation, object,
                old, false, null);
    }

    @Test
    void aValidV1beta1WorkloadSpreadIsAllowedOnCreateAndUpdate() throws Exception {
        ObjectNode beta = betaDemo();
        assertTrue(beta.at("/spec/subsets/0").has("requiredNodeSelector"));
        assertTrue(WorkloadSpreadWebhooksTest.answer(true, WorkloadSpreadLookup.NONE, request("CREATE", beta, null))
                .allowed());
        assertTrue(WorkloadSpreadWebhooksTest.answer(true, WorkloadSpreadLookup.NONE,
                request("UPDATE", beta, betaDemo())).allowed());
    }

    @Test
    void errorsNameTheV1beta1Fields() throws Exception {
        ObjectNode bad = betaDemo();
        ((ObjectNode) bad.at("/spec/subsets/0/requiredNodeSelector/matchExpressions/0")).put("operator", "Near");
        ((ObjectNode) bad.at("/spec/subsets/1")).put("maxReplicas", -3);
        AdmissionResponse r = WorkloadSpreadWebhooksTest.answer(true, WorkloadSpreadLookup.NONE,
                request("CREATE", bad, null));
        assertFalse(r.allowed());
        assertEquals(400, r.code());
        assertTrue(r.message().contains("spec.subsets[0].requiredNodeSelector.matchExpressions[0].operator"),
                r.message());
        assertFalse(r.message().contains("requiredNodeSelectorTerm"), r.message());
        assertTrue(r.message().contains("spec.subsets[1].maxReplicas"), r.message());
    }

    @Test
    void theV1alpha1SpellingInAV1beta1ObjectIsRefusedWithTheField() throws Exception {
        ObjectNode bad = betaDemo();
        ((ObjectNode) bad.at("/spec/subsets/2")).set("requiredNodeSelectorTerm",
                bad.at("/spec/subsets/2/requiredNodeSelector").deepCopy());
        AdmissionResponse r = WorkloadSpreadWebhooksTest.answer(true, WorkloadSpreadLookup.NONE,
                request("CREATE", bad, null));
        assertFalse(r.allowed());
        assertEquals(400, r.code());
        assertEquals("spec.subsets[2].requiredNodeSelectorTerm: field not declared in schema: v1beta1 spells it "
                + "requiredNodeSelector", r.message());
    }

    @Test
    void hostileV1beta1ValuesAreRefusedWithTheFieldNotACrash() throws Exception {
        for (String json : List.of("{'subsets':'many'}", "{'subsets':[{'name':7}]}",
                "{'subsets':[{'name':'a','maxReplicas':'99999999999999999999%'}]}",
                "{'subsets':[{'name':'a','requiredNodeSelector':[]}]}",
                "{'subsets':[{'name':'a','preferredNodeSelector':[{'weight':'heavy','preference':{}}]}]}",
                "{'scheduleStrategy':{'type':'Adaptive','adaptive':{'rescheduleCriticalSeconds':-1}}}")) {
            ObjectNode bad = betaDemo();
            ((ObjectNode) bad.get("spec")).setAll((ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"')));
            AdmissionResponse r = WorkloadSpreadWebhooksTest.answer(true, WorkloadSpreadLookup.NONE,
                    request("CREATE", bad, null));
            assertFalse(r.allowed(), json);
            assertTrue(r.code() == 400 || r.code() == 422, json + " " + r.code());
            assertTrue(r.message().contains("spec."), json + ": " + r.message());
            assertFalse(r.message().contains("dev.kruisevertx"), r.message());
            assertFalse(r.message().contains("NodeSelectorTerm"), "a v1alpha1 name in the answer: " + r.message());
        }
    }

    @Test
    void theStoredSpreadsOfTheNamespaceConflictWithAV1beta1One() throws Exception {
        ObjectNode other = WorkloadSpreadWebhooksTest.demo();
        ((ObjectNode) other.path("metadata")).put("name", "earlier");
        WorkloadSpread earlier = Json.toModel(other, WorkloadSpread.class);
        AdmissionResponse r = WorkloadSpreadWebhooksTest.answer(true, WorkloadSpreadLookup.of(ns -> List.of(earlier)),
                request("CREATE", betaDemo(), null));
        assertFalse(r.allowed());
        assertTrue(r.message().endsWith("ws.spec.targetRef is in conflict with other WorkloadSpread earlier"),
                r.message());
    }

    @Test
    void convertAnswersBothDirectionsThroughTheRegisteredConverters() throws Exception {
        ConversionRegistry conversions = KruiseWebhooks.registerConversions(new ConversionRegistry());
        ObjectNode stored = WorkloadSpreadWebhooksTest.demo();
        ObjectNode review = Json.MAPPER.createObjectNode();
        review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request").put("uid", "u1")
                .put("desiredAPIVersion", "apps.kruise.io/v1beta1");
        ArrayNode objects = request.putArray("objects");
        objects.add(stored);
        JsonNode answer = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals("Success", answer.path("response").path("result").path("status").asText());
        JsonNode converted = answer.path("response").path("convertedObjects").get(0);
        assertEquals("apps.kruise.io/v1beta1", converted.path("apiVersion").asText());
        assertEquals("zone-a", converted.at("/spec/subsets/0/requiredNodeSelector/matchExpressions/0/values/0")
                .asText());

        request.put("desiredAPIVersion", "apps.kruise.io/v1alpha1");
        objects.removeAll();
        objects.add(converted);
        JsonNode back = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals(stored, back.path("response").path("convertedObjects").get(0));

        ObjectNode clash = betaDemo();
        ((ObjectNode) clash.at("/spec/subsets/0")).putObject("requiredNodeSelectorTerm");
        objects.removeAll();
        objects.add(clash);
        JsonNode failed = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals("Failure", failed.path("response").path("result").path("status").asText());
        assertTrue(failed.path("response").path("result").path("message").asText().startsWith(
                "cannot convert WorkloadSpread default/workloadSpread to apps.kruise.io/v1alpha1: "
                        + "spec.subsets[0].requiredNodeSelectorTerm"), failed.toString());
    }
}
