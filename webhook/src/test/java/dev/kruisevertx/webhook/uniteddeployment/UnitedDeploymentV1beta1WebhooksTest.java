package dev.kruisevertx.webhook.uniteddeployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.UnitedDeploymentConversion;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import io.fabric8.zjsonpatch.JsonPatch;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The UnitedDeployment webhooks and {@code /convert} for v1beta1 objects (v1alpha1 stays the stored version). */
class UnitedDeploymentV1beta1WebhooksTest {

    /** A valid v1beta1 UnitedDeployment with a v1beta1 CloneSet template, {@code overlay} merged into its spec. */
    private static ObjectNode beta(String overlay) {
        ObjectNode o = (ObjectNode) UnitedDeploymentWebhooksTest.tree(("{'apiVersion':'apps.kruise.io/v1beta1',"
                + "'kind':'UnitedDeployment','metadata':{'name':'abc','namespace':'default'},'spec':{'replicas':4,"
                + "'selector':{'matchLabels':{'a':'b'}},'template':{'cloneSetTemplate':{'metadata':{'labels':{'a':'b'}},"
                + "'spec':{'selector':{'matchLabels':{'a':'b'}},'template':{'metadata':{'labels':{'a':'b'}},"
                + "'spec':{'containers':[{'name':'c','image':'nginx'}]}},'updateStrategy':{'type':'RollingUpdate',"
                + "'rollingUpdate':{'podUpdatePolicy':'InPlaceIfPossible','maxUnavailable':1}},"
                + "'scaleStrategy':{'enablePVCReuse':true}}}},'topology':{'subsets':[{'name':'a'},{'name':'b'}]}}}")
                .replace('\'', '"'));
        UnitedDeploymentWebhooksTest.merge((ObjectNode) o.get("spec"),
                (ObjectNode) UnitedDeploymentWebhooksTest.tree(overlay.replace('\'', '"')));
        return o;
    }

    private static AdmissionRequest request(String op, ObjectNode object, ObjectNode old) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1beta1", "UnitedDeployment",
                "uniteddeployments", "", "abc", "default", op, object, old, false, null);
    }

    private static AdmissionResponse answer(AdmissionHandler h, AdmissionRequest r) throws Exception {
        return h.handle(r).toCompletionStage().toCompletableFuture().get();
    }

    private static JsonNode mutate(ObjectNode object) throws Exception {
        AdmissionResponse resp = answer(UnitedDeploymentWebhooks.mutating(false), request("CREATE", object, null));
        assertTrue(resp.allowed(), String.valueOf(resp.message()));
        return resp.hasPatch() ? JsonPatch.apply(resp.patch(), object) : object;
    }

    @Test
    void aV1beta1UnitedDeploymentGetsTheV1alpha1DefaultsAndStaysV1beta1() throws Exception {
        ObjectNode sent = beta("{}");
        JsonNode out = mutate(sent);
        assertEquals("apps.kruise.io/v1beta1", out.path("apiVersion").asText(), "the patch keeps the version sent");
        assertEquals(10, out.at("/spec/revisionHistoryLimit").asInt());
        assertEquals("Manual", out.at("/spec/updateStrategy/type").asText());
        assertTrue(out.at("/spec/updateStrategy/manualUpdate").isObject());
        // The v1beta1 CloneSet template is untouched: no v1alpha1 spelling leaks in.
        assertEquals(sent.at("/spec/template/cloneSetTemplate"), out.at("/spec/template/cloneSetTemplate"));
        assertFalse(out.path("metadata").has("annotations"));
    }

    @Test
    void aValidV1beta1UnitedDeploymentIsAllowedAndAnInvalidOneRefusedWithTheField() throws Exception {
        AdmissionResponse ok = answer(UnitedDeploymentWebhooks.validating(), request("CREATE", beta("{}"), null));
        assertTrue(ok.allowed(), String.valueOf(ok.message()));

        AdmissionResponse bad = answer(UnitedDeploymentWebhooks.validating(), request("CREATE",
                beta("{'replicas':-3,'topology':{'subsets':[{'name':'Bad_Name'}]}}"), null));
        assertFalse(bad.allowed());
        assertEquals(422, bad.code());
        assertTrue(bad.message().contains("spec.replicas"), bad.message());
        assertTrue(bad.message().contains("spec.topology.subsets[0].name"), bad.message());
    }

    @Test
    void aCloneSetTemplateV1alpha1CannotHoldIsDeniedWithTheField() throws Exception {
        ObjectNode sent = beta("{'template':{'cloneSetTemplate':{'spec':{'updateStrategy':{'type':'Sideways'}}}}}");
        for (AdmissionHandler h : new AdmissionHandler[] {UnitedDeploymentWebhooks.mutating(false),
                UnitedDeploymentWebhooks.validating()}) {
            AdmissionResponse r = answer(h, request("CREATE", sent, null));
            assertFalse(r.allowed());
            assertEquals(422, r.code());
            assertTrue(r.message().startsWith("spec.template.cloneSetTemplate.spec.updateStrategy.type: Unsupported"),
                    r.message());
        }
    }

    @Test
    void anUpdateThroughV1beta1IsJudgedAgainstTheOldObject() throws Exception {
        ObjectNode old = beta("{'topology':{'subsets':[{'name':'a','nodeSelectorTerm':{'matchExpressions':[{'key':'z',"
                + "'operator':'In','values':['1']}]}},{'name':'b'}]}}");
        ObjectNode changed = beta("{'topology':{'subsets':[{'name':'a','nodeSelectorTerm':{'matchExpressions':[{'key':"
                + "'z','operator':'In','values':['2']}]}},{'name':'b'}]}}");
        AdmissionResponse r = answer(UnitedDeploymentWebhooks.validating(), request("UPDATE", changed, old));
        assertFalse(r.allowed());
        assertTrue(r.message().contains("spec.topology.subsets[0].nodeSelectorTerm: Forbidden"), r.message());
    }

    @Test
    void convertAnswersBothDirectionsAndFailsWithTheReason() throws Exception {
        ConversionRegistry conversions = new ConversionRegistry();
        UnitedDeploymentWebhooks.registerConversion(conversions);
        ObjectNode stored = UnitedDeploymentConversion.toV1alpha1(mutate(beta("{}")));
        assertEquals("InPlaceIfPossible", stored.at("/spec/template/cloneSetTemplate/spec/updateStrategy/type").asText());
        stored.putObject("status").put("replicas", 4).put("updatedReplicas", 4).put("currentRevision", "r1")
                .putObject("updateStatus").put("updatedRevision", "r2");
        ObjectNode review = Json.MAPPER.createObjectNode();
        review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request").put("uid", "u1")
                .put("desiredAPIVersion", "apps.kruise.io/v1beta1");
        ArrayNode objects = request.putArray("objects");
        objects.add(stored);
        JsonNode answer = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals("Success", answer.at("/response/result/status").asText());
        JsonNode converted = answer.at("/response/convertedObjects/0");
        assertEquals("apps.kruise.io/v1beta1", converted.path("apiVersion").asText());
        assertEquals("r2", converted.at("/status/updatedRevision").asText());
        assertEquals("RollingUpdate", converted.at("/spec/template/cloneSetTemplate/spec/updateStrategy/type").asText());

        request.put("desiredAPIVersion", "apps.kruise.io/v1alpha1");
        objects.removeAll();
        objects.add(converted);
        JsonNode back = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals(Json.MAPPER.readTree(stored.toString()), back.at("/response/convertedObjects/0"));

        objects.removeAll();
        objects.add(beta("{'template':{'cloneSetTemplate':{'spec':{'updateStrategy':{'type':'Canary'}}}}}"));
        JsonNode failed = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals("Failure", failed.at("/response/result/status").asText());
        assertTrue(failed.at("/response/result/message").asText().startsWith("cannot convert UnitedDeployment "
                + "default/abc to apps.kruise.io/v1alpha1: spec.template.cloneSetTemplate.spec.updateStrategy.type"),
                failed.at("/response/result/message").asText());
    }
}
