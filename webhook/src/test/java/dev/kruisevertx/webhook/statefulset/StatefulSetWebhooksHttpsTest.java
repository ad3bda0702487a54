package dev.kruisevertx.webhook.statefulset;

import dev.kruisevertx.webhook.WebhookDependencies;
import java.util.Map;
import dev.kruisevertx.features.FeatureGates;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetConversion;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionReviews;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import dev.kruisevertx.webhook.testing.TestCerts;
import io.fabric8.zjsonpatch.JsonPatch;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The StatefulSet webhooks and converter as the API server reaches them, over HTTPS. */
class StatefulSetWebhooksHttpsTest {
    static final String BETA = "{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"StatefulSet\","
            + "\"metadata\":{\"name\":\"web\",\"namespace\":\"default\",\"resourceVersion\":\"7\"},\"spec\":{\"replicas\":4,"
            + "\"reserveOrdinals\":[1,\"5-6\"],\"ordinals\":{\"start\":2},"
            + "\"persistentVolumeClaimRetentionPolicy\":{\"whenDeleted\":\"Delete\",\"whenScaled\":\"Retain\"},"
            + "\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
            + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}},\"status\":{\"replicas\":4,"
            + "\"readyReplicas\":4,\"availableReplicas\":4,\"currentReplicas\":4,\"updatedReplicas\":4}}";

    Vertx vertx;
    WebhookServerVerticle server;
    WebClient client;

    @BeforeEach
    void setUp() throws Exception {
        vertx = Vertx.vertx();
        CertBundle certs = TestCerts.localhost();
        AdmissionRegistry registry = new AdmissionRegistry();
        KruiseWebhooks.registerAll(registry, WebhookDependencies.of(FeatureGates.parse(
                "KruisePodReadinessGate=false,TemplateNoDefaults=false,KruiseDaemon=true,"
                        + "StatefulSetAutoDeletePVC=true,StatefulSetAutoResizePVCGate=false", Map.of()))
                .withPods((ns, name) -> Optional.empty()));
        server = new WebhookServerVerticle("localhost", 0, 3 << 20, registry,
                KruiseWebhooks.registerConversions(new ConversionRegistry()),
                new WebhookMetrics(new SimpleMeterRegistry()), certs);
        vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        client = WebClient.create(vertx, new WebClientOptions().setSsl(true)
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(certs.caCertPem()))));
    }

    @AfterEach
    void tearDown() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    JsonNode post(String path, JsonNode body) throws Exception {
        String out = client.post(server.actualPort(), "localhost", path).sendBuffer(Buffer.buffer(body.toString()))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).bodyAsString();
        return Json.MAPPER.readTree(out);
    }

    JsonNode convert(JsonNode object, String desired) throws Exception {
        ObjectNode review = Json.MAPPER.createObjectNode();
        review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", "c-1").put("desiredAPIVersion", desired);
        request.putArray("objects").add(object);
        JsonNode response = post("/convert", review).path("response");
        assertEquals("Success", response.path("result").path("status").asText(), response.toString());
        assertEquals("c-1", response.path("uid").asText());
        return response.path("convertedObjects").get(0);
    }

    JsonNode admit(String path, String operation, JsonNode object, JsonNode old) throws Exception {
        ObjectNode req = Json.MAPPER.createObjectNode();
        req.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode r = req.putObject("request");
        r.put("uid", "uid-1").put("operation", operation).put("namespace", "default");
        String version = object.path("apiVersion").asText().substring("apps.kruise.io/".length());
        r.putObject("kind").put("group", "apps.kruise.io").put("version", version).put("kind", "StatefulSet");
        r.putObject("resource").put("group", "apps.kruise.io").put("version", version).put("resource", "statefulsets");
        r.set("object", object);
        if (old != null) {
            r.set("oldObject", old);
        }
        return post(path, req).path("response");
    }

    @Test
    void conversionReviewRoundTripsEveryField() throws Exception {
        JsonNode beta = Json.MAPPER.readTree(BETA);
        JsonNode alpha = convert(beta, "apps.kruise.io/v1alpha1");
        assertEquals("apps.kruise.io/v1alpha1", alpha.path("apiVersion").asText());
        assertFalse(alpha.path("spec").has("reserveOrdinals"));
        assertTrue(alpha.path("metadata").path("annotations").has(StatefulSetConversion.BETA_FIELDS_ANNOTATION));
        assertEquals(beta, convert(alpha, "apps.kruise.io/v1beta1"));
    }

    @Test
    void aBrokenStashFailsTheConversionWithAMessage() throws Exception {
        ObjectNode alpha = (ObjectNode) convert(Json.MAPPER.readTree(BETA), "apps.kruise.io/v1alpha1");
        ((ObjectNode) alpha.path("metadata").path("annotations")).put(StatefulSetConversion.BETA_FIELDS_ANNOTATION, "[");
        ObjectNode review = Json.MAPPER.createObjectNode();
        review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", "c-2").put("desiredAPIVersion", "apps.kruise.io/v1beta1");
        request.putArray("objects").add(alpha);
        JsonNode response = post("/convert", review).path("response");
        assertEquals("Failure", response.path("result").path("status").asText());
        assertTrue(response.path("result").path("message").asText().contains("default/web"), response.toString());
    }

    @Test
    void bothVersionsAreDefaulted() throws Exception {
        for (String version : new String[]{"v1beta1", "v1alpha1"}) {
            ObjectNode set = (ObjectNode) Json.MAPPER.readTree("{\"apiVersion\":\"apps.kruise.io/" + version + "\","
                    + "\"kind\":\"StatefulSet\",\"metadata\":{\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{"
                    + "\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"updateStrategy\":{\"rollingUpdate\":"
                    + "{\"podUpdatePolicy\":\"InPlaceIfPossible\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
                    + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}");
            JsonNode response = admit(StatefulSetWebhooks.MUTATE_PATH, "CREATE", set, null);
            assertTrue(response.path("allowed").asBoolean(), response.toString());
            JsonNode out = JsonPatch.apply(AdmissionReviews.decodePatch(response), set);
            assertEquals(1, out.at("/spec/replicas").asInt(), version);
            assertEquals(10, out.at("/spec/revisionHistoryLimit").asInt(), version);
            assertEquals("OrderedReady", out.at("/spec/podManagementPolicy").asText(), version);
            assertEquals("RollingUpdate", out.at("/spec/updateStrategy/type").asText(), version);
            assertEquals(0, out.at("/spec/updateStrategy/rollingUpdate/partition").asInt(), version);
            assertEquals(1, out.at("/spec/updateStrategy/rollingUpdate/maxUnavailable").asInt(), version);
            assertEquals("InPlaceUpdateReady", out.at("/spec/template/spec/readinessGates/0/conditionType").asText());
            assertEquals("Always", out.at("/spec/template/spec/restartPolicy").asText(), version);
            if (version.equals("v1beta1")) {
                assertEquals("Retain", out.at("/spec/persistentVolumeClaimRetentionPolicy/whenScaled").asText());
            } else {
                assertFalse(out.path("spec").has("persistentVolumeClaimRetentionPolicy"));
                assertEquals("apps.kruise.io/v1alpha1", out.path("apiVersion").asText());
            }
            // The defaulted object passes validation.
            JsonNode valid = admit(StatefulSetWebhooks.VALIDATE_PATH, "CREATE", out, null);
            assertTrue(valid.path("allowed").asBoolean(), valid.toString());
        }
    }

    @Test
    void invalidSetsAreRejectedForBothVersionsOnBothPaths() throws Exception {
        for (String version : new String[]{"v1beta1", "v1alpha1"}) {
            ObjectNode set = (ObjectNode) Json.MAPPER.readTree("{\"apiVersion\":\"apps.kruise.io/" + version + "\","
                    + "\"kind\":\"StatefulSet\",\"metadata\":{\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{"
                    + "\"replicas\":2,\"podManagementPolicy\":\"OrderedReady\",\"selector\":{\"matchLabels\":{\"app\":\"a\"}},"
                    + "\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"partition\":0,"
                    + "\"maxUnavailable\":2,\"podUpdatePolicy\":\"ReCreate\"}},"
                    + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"b\"}},"
                    + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}");
            for (String path : new String[]{StatefulSetWebhooks.VALIDATE_PATH,
                    "/validate-apps-kruise-io-v1alpha1-statefulset"}) {
                JsonNode response = admit(path, "CREATE", set, null);
                assertFalse(response.path("allowed").asBoolean(), response.toString());
                String message = response.path("status").path("message").asText();
                assertTrue(message.contains("`selector` does not match template `labels`"), message);
                assertTrue(message.contains("maxUnavailable can just work with Parallel PodManagementPolicyType"), message);
            }
        }
    }
}
