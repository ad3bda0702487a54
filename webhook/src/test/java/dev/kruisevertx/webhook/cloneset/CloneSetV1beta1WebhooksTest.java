package dev.kruisevertx.webhook.cloneset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.CloneSetConversion;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import io.fabric8.zjsonpatch.JsonPatch;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CloneSet webhooks and {@code /convert} for v1beta1 objects (v1alpha1 stays the stored version). */
class CloneSetV1beta1WebhooksTest {
    private static final PodLookup NO_PODS = (ns, name) -> Optional.empty();

    private static ObjectNode beta(String specJson) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(("{'apiVersion':'apps.kruise.io/v1beta1','kind':'CloneSet',"
                + "'metadata':{'name':'b','namespace':'default'},'spec':{'selector':{'matchLabels':{'app':'b'}},"
                + "'template':{'metadata':{'labels':{'app':'b'}},'spec':{'containers':[{'name':'c','image':'nginx'}]}}"
                + specJson + "}}").replace('\'', '"'));
    }

    private static AdmissionRequest request(String op, ObjectNode object, ObjectNode old) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1beta1", "CloneSet", "clonesets",
                "", "b", "default", op, object, old, false, null);
    }

    private static AdmissionResponse answer(dev.kruisevertx.webhook.admission.AdmissionHandler h, AdmissionRequest r)
            throws Exception {
        return h.handle(r).toCompletionStage().toCompletableFuture().get();
    }

    private static JsonNode mutate(ObjectNode object) throws Exception {
        AdmissionResponse resp = answer(CloneSetWebhooks.mutating(false), request("CREATE", object, null));
        assertTrue(resp.allowed(), String.valueOf(resp.message()));
        return resp.hasPatch() ? JsonPatch.apply(resp.patch(), object) : object;
    }

    @Test
    void aBareV1beta1CloneSetDefaultsToRollingUpdateReCreate() throws Exception {
        JsonNode out = mutate(beta(""));
        assertEquals("apps.kruise.io/v1beta1", out.path("apiVersion").asText(), "the patch keeps the version sent");
        JsonNode spec = out.path("spec");
        assertEquals(1, spec.path("replicas").asInt());
        assertEquals(10, spec.path("revisionHistoryLimit").asInt());
        JsonNode update = spec.path("updateStrategy");
        assertEquals("RollingUpdate", update.path("type").asText());
        JsonNode rolling = update.path("rollingUpdate");
        assertEquals("ReCreate", rolling.path("podUpdatePolicy").asText());
        assertEquals(0, rolling.path("partition").asInt());
        assertEquals("20%", rolling.path("maxUnavailable").asText());
        assertEquals(0, rolling.path("maxSurge").asInt());
        assertFalse(update.has("partition"), "no v1alpha1 spelling leaks into the v1beta1 object");
        assertFalse(spec.path("scaleStrategy").path("enablePVCReuse").asBoolean(),
                "PVC reuse stays off: v1beta1's enablePVCReuse is false when unset");
        assertEquals("ClusterFirst", spec.path("template").path("spec").path("dnsPolicy").asText(), "template defaults");
    }

    @Test
    void inPlacePolicyGetsAnEmptyInPlaceStrategyAndKeepsImageFields() throws Exception {
        JsonNode out = mutate(beta(",'updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'podUpdatePolicy':"
                + "'InPlaceIfPossible','inPlaceUpdateStrategy':{'imagePreDownloadTimeoutSeconds':90}}},"
                + "'scaleStrategy':{'enablePVCReuse':true}"));
        JsonNode rolling = out.path("spec").path("updateStrategy").path("rollingUpdate");
        assertEquals("InPlaceIfPossible", rolling.path("podUpdatePolicy").asText());
        assertEquals(90, rolling.path("inPlaceUpdateStrategy").path("imagePreDownloadTimeoutSeconds").asInt());
        assertTrue(out.path("spec").path("scaleStrategy").path("enablePVCReuse").asBoolean());
        assertFalse(out.path("metadata").has("annotations"));
    }

    @Test
    void aCopiedV1alpha1LabelBecomesTheField() throws Exception {
        ObjectNode sent = beta("");
        ((ObjectNode) sent.get("metadata")).putObject("labels")
                .put("apps.kruise.io/cloneset-scaling-exclude-preparing-delete", "true");
        JsonNode out = mutate(sent);
        assertTrue(out.path("spec").path("scaleStrategy").path("excludePreparingDelete").asBoolean());
        assertFalse(out.path("metadata").has("labels"));
    }

    @Test
    void validationJudgesTheV1alpha1FormAndNamesV1beta1Fields() throws Exception {
        ObjectNode bad = (ObjectNode) mutate(beta(",'updateStrategy':{'type':'RollingUpdate','rollingUpdate':"
                + "{'podUpdatePolicy':'InPlaceOnly','maxSurge':2,'partition':'150%'}}"));
        AdmissionResponse resp = answer(CloneSetWebhooks.validating(NO_PODS), request("CREATE", bad, null));
        assertFalse(resp.allowed());
        assertEquals(422, resp.code());
        String message = resp.message();
        assertTrue(message.contains("spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: \"2\": can not use maxSurge "
                + "with strategy type InPlaceOnly"), message);
        assertTrue(message.contains("spec.updateStrategy.rollingUpdate.partition"), message);
        assertFalse(message.contains("spec.updateStrategy.partition"), message);

        ObjectNode unknownPolicy = (ObjectNode) mutate(beta(",'updateStrategy':{'type':'RollingUpdate','rollingUpdate':"
                + "{'podUpdatePolicy':'Sometimes'}}"));
        String policy = answer(CloneSetWebhooks.validating(NO_PODS), request("CREATE", unknownPolicy, null)).message();
        assertTrue(policy.contains("spec.updateStrategy.rollingUpdate.podUpdatePolicy: Invalid value: \"Sometimes\""),
                policy);

        ObjectNode good = (ObjectNode) mutate(beta(""));
        assertTrue(answer(CloneSetWebhooks.validating(NO_PODS), request("CREATE", good, null)).allowed());
    }

    @Test
    void anUnconvertibleV1beta1ObjectIsDeniedWithTheField() throws Exception {
        AdmissionResponse resp = answer(CloneSetWebhooks.validating(NO_PODS),
                request("CREATE", beta(",'updateStrategy':{'type':'Canary'}"), null));
        assertFalse(resp.allowed());
        assertEquals(422, resp.code());
        assertEquals("spec.updateStrategy.type: Unsupported value: \"Canary\": supported values: \"RollingUpdate\", "
                + "\"OnDelete\"", resp.message());
        AdmissionResponse wrongType = answer(CloneSetWebhooks.mutating(false),
                request("CREATE", beta(",'replicas':'7'"), null));
        assertFalse(wrongType.allowed());
        assertTrue(wrongType.message().startsWith("spec.replicas: Invalid value: \"7\""), wrongType.message());
    }

    @Test
    void updateOfAV1beta1ObjectComparesWithTheStoredOneInV1alpha1() throws Exception {
        ObjectNode old = (ObjectNode) mutate(beta(""));
        ObjectNode changed = old.deepCopy();
        ((ObjectNode) changed.path("spec").path("selector").path("matchLabels")).put("app", "other");
        ((ObjectNode) changed.path("spec").path("template").path("metadata").path("labels")).put("app", "other");
        AdmissionResponse resp = answer(CloneSetWebhooks.validating(NO_PODS), request("UPDATE", changed, old));
        assertFalse(resp.allowed());
        assertTrue(resp.message().contains("spec"), resp.message());
        ObjectNode scaled = old.deepCopy();
        ((ObjectNode) scaled.get("spec")).put("replicas", 4);
        assertTrue(answer(CloneSetWebhooks.validating(NO_PODS), request("UPDATE", scaled, old)).allowed());
    }

    @Test
    void otherVersionsAreStillRefused() throws Exception {
        ObjectNode v2 = beta("");
        v2.put("apiVersion", "apps.kruise.io/v2");
        AdmissionResponse resp = answer(CloneSetWebhooks.validating(NO_PODS), request("CREATE", v2, null));
        assertEquals(400, resp.code());
        assertTrue(resp.message().contains("apps.kruise.io/v1alpha1 and apps.kruise.io/v1beta1"), resp.message());
    }

    @Test
    void convertAnswersBothDirectionsAndFailsWithTheReason() throws Exception {
        ConversionRegistry conversions = new ConversionRegistry();
        CloneSetWebhooks.registerConversion(conversions);
        ObjectNode stored = CloneSetConversion.toV1alpha1(mutate(beta(",'scaleStrategy':{'enablePVCReuse':true}")));
        ObjectNode review = Json.MAPPER.createObjectNode();
        review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request").put("uid", "u1").put("desiredAPIVersion", "apps.kruise.io/v1beta1");
        ArrayNode objects = request.putArray("objects");
        objects.add(stored);
        JsonNode answer = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals("Success", answer.path("response").path("result").path("status").asText());
        JsonNode converted = answer.path("response").path("convertedObjects").get(0);
        assertEquals("apps.kruise.io/v1beta1", converted.path("apiVersion").asText());
        assertEquals("ReCreate", converted.path("spec").path("updateStrategy").path("rollingUpdate").path("podUpdatePolicy").asText());

        request.put("desiredAPIVersion", "apps.kruise.io/v1alpha1");
        objects.removeAll();
        objects.add(converted);
        JsonNode back = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        // Compared as parsed JSON: the model writes some numbers as longs, the review carries plain numbers.
        assertEquals(Json.MAPPER.readTree(stored.toString()), back.path("response").path("convertedObjects").get(0));

        objects.removeAll();
        objects.add(beta(",'updateStrategy':{'type':'Canary'}"));
        JsonNode failed = conversions.review(new String(Json.MAPPER.writeValueAsBytes(review), StandardCharsets.UTF_8)
                .getBytes(StandardCharsets.UTF_8));
        assertEquals("Failure", failed.path("response").path("result").path("status").asText());
        assertTrue(failed.path("response").path("result").path("message").asText()
                .startsWith("cannot convert CloneSet default/b to apps.kruise.io/v1alpha1: spec.updateStrategy.type"));
    }
}
