package dev.kruisevertx.webhook.crr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import io.fabric8.zjsonpatch.JsonPatch;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ContainerRecreateRequest webhook and {@code /convert} for v1beta1 objects (v1alpha1 stays the stored version). */
class CrrV1beta1WebhooksTest {
    static ObjectNode beta(String spec) throws Exception {
        ObjectNode o = CrrWebhooksTest.crr(spec);
        o.put("apiVersion", "apps.kruise.io/v1beta1");
        return o;
    }

    @Test
    void aV1beta1RequestIsDefaultedFromThePodAndThePatchKeepsTheVersion() throws Exception {
        ObjectNode object = beta("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}]}");
        AdmissionResponse r = CrrWebhooksTest.call(CrrWebhooksTest.handler(true), AdmissionRequest.CREATE, object, null);
        assertTrue(r.allowed(), r.message());
        JsonNode out = JsonPatch.apply(r.patch(), object);
        assertEquals("apps.kruise.io/v1beta1", out.path("apiVersion").asText());
        assertEquals("pod-uid-1", out.path("metadata").path("labels").path(WellKnown.CRR_POD_UID_LABEL).asText());
        assertEquals("Fail", out.path("spec").path("strategy").path("failurePolicy").asText());
        assertEquals(45, out.path("spec").path("strategy").path("terminationGracePeriodSeconds").asInt());
        assertEquals("containerd://aaa", out.path("spec").path("containers").get(0).path("statusContext")
                .path("containerID").asText());
    }

    @Test
    void hostileV1beta1RequestsAreRefusedWithTheField() throws Exception {
        for (String[] c : new String[][]{
                {"{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}],\"activeDeadlineSeconds\":\"soon\"}",
                        "spec.activeDeadlineSeconds"},
                {"{\"podName\":\"web-0\",\"containers\":\"app\"}", "spec.containers"},
                {"{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}],\"strategy\":{\"minStartedSeconds\":1e30}}",
                        "spec.strategy.minStartedSeconds"}}) {
            AdmissionResponse r = CrrWebhooksTest.call(CrrWebhooksTest.handler(true), AdmissionRequest.CREATE, beta(c[0]),
                    null);
            assertFalse(r.allowed(), c[0]);
            assertTrue(r.code() == 422 || r.code() == 400, c[0] + " " + r.code());
            assertTrue(r.message().contains(c[1]), c[0] + ": " + r.message());
            assertFalse(r.message().contains("dev.kruisevertx"), r.message());
        }
        ObjectNode badStatus = beta("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}]}");
        badStatus.putObject("status").put("containerStatusSnapshot", "all fine");
        AdmissionResponse r = CrrWebhooksTest.call(CrrWebhooksTest.handler(true), AdmissionRequest.CREATE, badStatus, null);
        assertFalse(r.allowed());
        assertTrue(r.message().contains("status.containerStatusSnapshot"), r.message());
        ObjectNode v2 = beta("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}]}");
        v2.put("apiVersion", "apps.kruise.io/v2");
        AdmissionResponse other = CrrWebhooksTest.call(CrrWebhooksTest.handler(true), AdmissionRequest.CREATE, v2, null);
        assertEquals(400, other.code());
        assertTrue(other.message().contains("apps.kruise.io/v1alpha1 and apps.kruise.io/v1beta1"), other.message());
    }

    @Test
    void updatesThroughV1beta1KeepTheSpecImmutable() throws Exception {
        ObjectNode old = beta("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}]}");
        ObjectNode changed = beta("{\"podName\":\"web-1\",\"containers\":[{\"name\":\"app\"}]}");
        AdmissionResponse r = CrrWebhooksTest.call(CrrWebhooksTest.handler(true), AdmissionRequest.UPDATE, changed, old);
        assertFalse(r.allowed(), "the v1alpha1 rule (spec immutable) applies to v1beta1 too");
        ObjectNode labelled = old.deepCopy();
        ((ObjectNode) labelled.get("metadata")).putObject("labels").put("x", "y");
        assertTrue(CrrWebhooksTest.call(CrrWebhooksTest.handler(true), AdmissionRequest.UPDATE, labelled, old).allowed());
    }

    @Test
    void convertAnswersBothDirections() throws Exception {
        ConversionRegistry conversions = new ConversionRegistry();
        CrrWebhooks.registerConversion(conversions);
        ObjectNode stored = CrrWebhooksTest.crr("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}]}");
        ((ObjectNode) stored.get("metadata")).putObject("annotations").put(WellKnown.CRR_SYNC_CONTAINER_STATUSES_ANNOTATION,
                "[{\"name\":\"app\",\"ready\":true,\"restartCount\":1}]");
        stored.putObject("status").put("phase", "Recreating");
        ObjectNode review = Json.MAPPER.createObjectNode();
        review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request").put("uid", "u1").put("desiredAPIVersion", "apps.kruise.io/v1beta1");
        ArrayNode objects = request.putArray("objects");
        objects.add(stored);
        JsonNode answer = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals("Success", answer.path("response").path("result").path("status").asText(), answer.toString());
        JsonNode converted = answer.path("response").path("convertedObjects").get(0);
        assertEquals("app", converted.path("status").path("containerStatusSnapshot").get(0).path("name").asText());
        request.put("desiredAPIVersion", "apps.kruise.io/v1alpha1");
        objects.removeAll();
        objects.add(converted);
        JsonNode back = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals(stored, back.path("response").path("convertedObjects").get(0));
        objects.removeAll();
        objects.add(beta("{\"podName\":\"web-0\",\"containers\":[]}").set("status",
                Json.MAPPER.createObjectNode().put("conditions", "x")));
        JsonNode failed = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals("Failure", failed.path("response").path("result").path("status").asText());
        assertTrue(failed.path("response").path("result").path("message").asText()
                .startsWith("cannot convert ContainerRecreateRequest ns/r to apps.kruise.io/v1alpha1: status.conditions"),
                failed.toString());
    }
}
