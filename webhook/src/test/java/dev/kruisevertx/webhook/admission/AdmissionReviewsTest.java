package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.zjsonpatch.JsonPatch;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdmissionReviewsTest {

    static byte[] review(String apiVersion, String uid, String op, String object) {
        return ("{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"AdmissionReview\",\"request\":{"
                + (uid == null ? "" : "\"uid\":\"" + uid + "\",")
                + "\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
                + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},"
                + "\"namespace\":\"ns\",\"operation\":\"" + op + "\",\"dryRun\":true,"
                + "\"userInfo\":{\"username\":\"alice\"},"
                + "\"object\":" + object + "}}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void parsesV1AndV1beta1Requests() {
        for (String v : new String[]{AdmissionReviews.V1, AdmissionReviews.V1BETA1}) {
            AdmissionRequest r = AdmissionReviews.parse(review(v, "u-1", "CREATE", "{\"metadata\":{\"name\":\"p\"}}"));
            assertEquals(v, r.reviewApiVersion());
            assertEquals("u-1", r.uid());
            assertEquals("Pod", r.kind());
            assertEquals("pods", r.resource());
            assertTrue(r.isCreate());
            assertTrue(r.dryRun());
            assertEquals("alice", r.username());
            assertEquals("p", r.object().path("metadata").path("name").asText());
        }
    }

    @Test
    void badInputGetsAMessageThatSaysWhatIsWrong() {
        assertMessage("not valid JSON", "{nope".getBytes());
        assertMessage("empty", new byte[0]);
        assertMessage("JSON object", "[1,2]".getBytes());
        assertMessage("expected kind AdmissionReview, got 'Pod'", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}".getBytes());
        assertMessage("unsupported AdmissionReview apiVersion 'admission.k8s.io/v2'",
                "{\"apiVersion\":\"admission.k8s.io/v2\",\"kind\":\"AdmissionReview\",\"request\":{}}".getBytes());
        assertMessage("has no request", "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}".getBytes());
        assertMessage("request.uid is missing", review(AdmissionReviews.V1, null, "CREATE", "{}"));
        assertMessage("request.operation is missing", review(AdmissionReviews.V1, "u", "", "{}"));
        assertMessage("request.object must be a JSON object", review(AdmissionReviews.V1, "u", "CREATE", "42"));
    }

    /** Issue 16 (hostile input): what kube-apiserver's peer, Go's encoding/json, would refuse or could not answer. */
    @Test
    void envelopeProblemsCarryTheUidOnlyWhenTheyCanBeAnswered() {
        BadReview op = assertThrows(BadReview.class,
                () -> AdmissionReviews.parse(review(AdmissionReviews.V1BETA1, "u-1", "PATCH", "{}")));
        assertTrue(op.answerable() && "u-1".equals(op.uid()) && AdmissionReviews.V1BETA1.equals(op.apiVersion()), op.getMessage());
        assertTrue(op.getMessage().contains("must be one of CREATE, UPDATE, DELETE or CONNECT, got 'PATCH'"), op.getMessage());
        String valid = new String(review(AdmissionReviews.V1, "u-2", "CREATE", "{}"), StandardCharsets.UTF_8);
        BadReview kind = assertThrows(BadReview.class, () -> AdmissionReviews.parse(
                valid.replace("\"kind\":\"AdmissionReview\"", "\"kind\":\"TokenReview\"").getBytes(StandardCharsets.UTF_8)));
        assertTrue(kind.answerable() && kind.getMessage().contains("expected kind AdmissionReview"), kind.getMessage());
        BadReview name = assertThrows(BadReview.class, () -> AdmissionReviews.parse(
                valid.replace("\"namespace\":\"ns\"", "\"namespace\":{}").getBytes(StandardCharsets.UTF_8)));
        assertTrue(name.answerable() && name.getMessage().contains("request.namespace must be a string, got an object"),
                name.getMessage());
        BadReview dryRun = assertThrows(BadReview.class, () -> AdmissionReviews.parse(
                valid.replace("\"dryRun\":true", "\"dryRun\":\"yes\"").getBytes(StandardCharsets.UTF_8)));
        assertTrue(dryRun.answerable() && dryRun.getMessage().contains("dryRun must be a boolean"), dryRun.getMessage());

        // A number is not a uid: there is nothing to echo.
        BadReview numericUid = assertThrows(BadReview.class, () -> AdmissionReviews.parse(
                valid.replace("\"uid\":\"u-2\"", "\"uid\":42").getBytes(StandardCharsets.UTF_8)));
        assertFalse(numericUid.answerable());
        assertTrue(numericUid.getMessage().contains("request.uid must be a non-empty string, got a number"),
                numericUid.getMessage());
        // Content after the value: Jackson would stop after the first object, Go refuses the body.
        BadReview trailing = assertThrows(BadReview.class,
                () -> AdmissionReviews.parse((valid + "{}").getBytes(StandardCharsets.UTF_8)));
        assertEquals("request body is not valid JSON: unexpected content after the JSON value", trailing.getMessage());
        // UTF-16, which Jackson would detect and read.
        BadReview utf16 = assertThrows(BadReview.class,
                () -> AdmissionReviews.parse(valid.getBytes(StandardCharsets.UTF_16)));
        assertTrue(utf16.getMessage().contains("must be JSON in UTF-8"), utf16.getMessage());
        BadReview deep = assertThrows(BadReview.class, () -> AdmissionReviews.parse(
                ("[".repeat(10_000) + "]".repeat(10_000)).getBytes(StandardCharsets.UTF_8)));
        assertFalse(deep.getMessage().contains("`"), deep.getMessage());
    }

    private static void assertMessage(String expected, byte[] body) {
        BadReview e = assertThrows(BadReview.class, () -> AdmissionReviews.parse(body));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void encodesResponsesInTheRequestVersionWithBase64JsonPatch() throws Exception {
        AdmissionRequest r = AdmissionReviews.parse(review(AdmissionReviews.V1BETA1, "u-9", "CREATE",
                "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"));
        TypedMutatingHandler<Pod> handler = new TypedMutatingHandler<>(Pod.class, (req, pod) ->
                pod.getMetadata().getLabels().put("added", "yes"));
        AdmissionResponse resp = handler.handle(r).toCompletionStage().toCompletableFuture().get();
        JsonNode out = Json.MAPPER.readTree(AdmissionReviews.encode(r, resp));
        assertEquals("admission.k8s.io/v1beta1", out.path("apiVersion").asText());
        assertEquals("AdmissionReview", out.path("kind").asText());
        assertEquals("u-9", out.path("response").path("uid").asText());
        assertTrue(out.path("response").path("allowed").asBoolean());
        assertEquals("JSONPatch", out.path("response").path("patchType").asText());
        ArrayNode patch = AdmissionReviews.decodePatch(out.path("response"));
        JsonNode patched = JsonPatch.apply(patch, r.object());
        assertEquals("yes", patched.path("metadata").path("labels").path("added").asText());
        assertEquals("nginx", patched.path("spec").path("containers").get(0).path("image").asText(), "untouched fields stay");
    }

    @Test
    void unchangedObjectsGetNoPatchAndUnknownFieldsSurvive() throws Exception {
        String obj = "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"futureField\":{\"x\":1},\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"500m\"}}}]}}";
        AdmissionRequest r = AdmissionReviews.parse(review(AdmissionReviews.V1, "u", "CREATE", obj));
        AdmissionResponse resp = new TypedMutatingHandler<>(Pod.class, (req, pod) -> { })
                .handle(r).toCompletionStage().toCompletableFuture().get();
        assertFalse(resp.hasPatch());
        JsonNode out = Json.MAPPER.readTree(AdmissionReviews.encode(r, resp));
        assertFalse(out.path("response").has("patch"));
    }

    @Test
    void deniedResponsesCarryStatus() throws Exception {
        AdmissionRequest r = AdmissionReviews.parse(review(AdmissionReviews.V1, "u", "CREATE", "{}"));
        JsonNode out = Json.MAPPER.readTree(AdmissionReviews.encode(r, AdmissionResponse.denied(422, "spec.replicas: Invalid")));
        JsonNode status = out.path("response").path("status");
        assertFalse(out.path("response").path("allowed").asBoolean());
        assertEquals(422, status.path("code").asInt());
        assertEquals("Invalid", status.path("reason").asText());
        assertEquals("spec.replicas: Invalid", status.path("message").asText());
    }

    @Test
    void objectMutationDiffsCopies() {
        ObjectNode a = Json.MAPPER.createObjectNode();
        a.putObject("spec").put("replicas", 1);
        ObjectNode b = a.deepCopy();
        ((ObjectNode) b.get("spec")).put("replicas", 3);
        ArrayNode patch = ObjectMutation.diff(a, b);
        assertEquals(1, patch.size());
        assertEquals("replace", patch.get(0).path("op").asText());
        assertEquals("/spec/replicas", patch.get(0).path("path").asText());
    }

    @Test
    void dryRunSkipsWrites() {
        AdmissionRequest dry = AdmissionReviews.parse(review(AdmissionReviews.V1, "u", "CREATE", "{}"));
        int[] writes = {0};
        DryRun.unlessDryRun(dry, () -> {
            writes[0]++;
            return Future.succeededFuture();
        });
        assertEquals(0, writes[0]);
        AdmissionRequest real = new AdmissionRequest(dry.reviewApiVersion(), dry.uid(), "", "v1", "Pod", "pods", "",
                "", "ns", "CREATE", dry.object(), null, false, null);
        DryRun.unlessDryRun(real, () -> {
            writes[0]++;
            return Future.succeededFuture();
        });
        assertEquals(1, writes[0]);
    }

    @Test
    void registryAnswersLegacySpellings() {
        AdmissionRegistry registry = new AdmissionRegistry();
        AdmissionHandler h = req -> Future.succeededFuture(AdmissionResponse.allow());
        registry.register("/mutate-apps-kruise-io-cloneset", h).register("/mutate-pod", h)
                .register("/validate-policy-kruise-io-podunavailablebudget", h);
        assertTrue(registry.find("/mutate-apps-kruise-io-v1alpha1-cloneset").isPresent());
        assertTrue(registry.find("/validate-policy-kruise-io-v1alpha1-podunavailablebudget").isPresent());
        assertTrue(registry.find("/mutate-pod").isPresent());
        assertFalse(registry.find("/mutate-nothing").isPresent());
        assertEquals("/validate-apps-kruise-io-v1alpha1-ephemeraljob",
                AdmissionRegistry.legacyPath("/validate-apps-kruise-io-v1alpha1-ephemeraljob"));
        assertThrows(IllegalArgumentException.class, () -> registry.register("/mutate-pod", h));
        assertThrows(IllegalArgumentException.class, () -> registry.register("mutate-pod", h));
    }
}
