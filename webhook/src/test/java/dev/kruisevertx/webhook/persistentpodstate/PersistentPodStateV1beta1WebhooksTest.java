package dev.kruisevertx.webhook.persistentpodstate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1beta1.PersistentPodStateConversion;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The PersistentPodState webhook and {@code /convert} for v1beta1 objects (v1alpha1 stays the stored version). */
class PersistentPodStateV1beta1WebhooksTest {
    static ObjectNode betaDemo() {
        ObjectNode beta = PersistentPodStateConversion.toV1beta1(PersistentPodStateValidationTest.tree(
                PersistentPodStateValidationTest.demo()));
        ((ObjectNode) beta.get("spec")).putObject("requiredPersistentTopology").putArray("keys")
                .add("topology.kubernetes.io/zone");
        return beta;
    }

    static AdmissionRequest request(String operation, ObjectNode object, ObjectNode old) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1beta1", "PersistentPodState",
                "persistentpodstates", "", object.path("metadata").path("name").asText(), "default", operation,
                object, old, false, null);
    }

    static AdmissionResponse answer(PersistentPodStateLookup lookup, AdmissionRequest r) throws Exception {
        return PersistentPodStateValidationTest.answer(lookup, r);
    }

    @Test
    void aValidV1beta1OneIsAllowedAndAConflictWithAStoredOneRefused() throws Exception {
        assertTrue(answer(PersistentPodStateLookup.NONE, request("CREATE", betaDemo(), null)).allowed());
        assertTrue(answer(PersistentPodStateLookup.NONE, request("UPDATE", betaDemo(), betaDemo())).allowed());
        PersistentPodState demo = PersistentPodStateValidationTest.demo();
        PersistentPodStateLookup withOther = PersistentPodStateLookup.of(ns -> List.of(
                PersistentPodStateValidationTest.named("other", "default", demo.getSpec().getTargetReference())),
                () -> CustomWorkloadWhiteList.EMPTY);
        AdmissionResponse r = answer(withOther, request("CREATE", betaDemo(), null));
        assertFalse(r.allowed());
        assertEquals(400, r.code());
    }

    @Test
    void errorsNameTheV1beta1Fields() throws Exception {
        ObjectNode bad = betaDemo();
        ((ArrayNode) bad.at("/spec/requiredPersistentTopology/keys")).add("bad key");
        ((ObjectNode) bad.get("spec")).putArray("preferredPersistentTopology").addObject().put("weight", 500)
                .putObject("preference").putArray("keys").add("zone");
        AdmissionResponse r = answer(PersistentPodStateLookup.NONE, request("CREATE", bad, null));
        assertFalse(r.allowed());
        assertEquals(400, r.code());
        assertTrue(r.message().contains("spec.requiredPersistentTopology.keys[1]"), r.message());
        assertTrue(r.message().contains("spec.preferredPersistentTopology[0].weight"), r.message());
        assertFalse(r.message().contains("nodeTopologyKeys"), r.message());
    }

    @Test
    void hostileV1beta1ValuesAreRefusedWithTheFieldNotACrash() throws Exception {
        for (String json : List.of("{'requiredPersistentTopology':{'keys':'zone'}}",
                "{'requiredPersistentTopology':{'keys':['a'],'nodeTopologyKeys':['b']}}",
                "{'preferredPersistentTopology':[{'weight':-1,'preference':{'keys':['zone']}}]}",
                "{'preferredPersistentTopology':[{'weight':99999999999,'preference':{'keys':['zone']}}]}",
                "{'persistentPodStateRetentionPolicy':7}")) {
            ObjectNode bad = betaDemo();
            ((ObjectNode) bad.get("spec")).setAll((ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"')));
            AdmissionResponse r = answer(PersistentPodStateLookup.NONE, request("CREATE", bad, null));
            assertFalse(r.allowed(), json);
            assertTrue(r.code() == 400 || r.code() == 422, json + " " + r.code());
            assertTrue(r.message().contains("spec."), json + ": " + r.message());
            assertFalse(r.message().contains("dev.kruisevertx"), r.message());
            assertFalse(r.message().contains("nodeTopologyKeys") && !json.contains("nodeTopologyKeys"),
                    "a v1alpha1 name in the answer to a v1beta1 object: " + r.message());
        }
    }

    @Test
    void convertAnswersBothDirectionsThroughTheRegisteredConverters() throws Exception {
        ConversionRegistry conversions = KruiseWebhooks.registerConversions(new ConversionRegistry());
        ObjectNode stored = PersistentPodStateConversion.toV1alpha1(betaDemo());
        ObjectNode review = Json.MAPPER.createObjectNode();
        review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request").put("uid", "u1")
                .put("desiredAPIVersion", "apps.kruise.io/v1beta1");
        ArrayNode objects = request.putArray("objects");
        objects.add(stored);
        JsonNode answer = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals("Success", answer.path("response").path("result").path("status").asText(), answer.toString());
        JsonNode converted = answer.path("response").path("convertedObjects").get(0);
        assertEquals(betaDemo(), converted);
        request.put("desiredAPIVersion", "apps.kruise.io/v1alpha1");
        objects.removeAll();
        objects.add(converted);
        assertEquals(stored, conversions.review(Json.MAPPER.writeValueAsBytes(review)).path("response")
                .path("convertedObjects").get(0));
    }
}
