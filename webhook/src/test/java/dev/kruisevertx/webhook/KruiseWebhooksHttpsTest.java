package dev.kruisevertx.webhook;

import java.util.Map;
import dev.kruisevertx.features.FeatureGates;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

/** The module's webhooks as the API server reaches them: HTTPS, AdmissionReview in, AdmissionReview out. */
class KruiseWebhooksHttpsTest {
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
        server = new WebhookServerVerticle("localhost", 0, 3 << 20, registry, new ConversionRegistry(),
                new WebhookMetrics(new SimpleMeterRegistry()), certs);
        vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        client = WebClient.create(vertx, new WebClientOptions().setSsl(true)
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(certs.caCertPem()))));
    }

    @AfterEach
    void tearDown() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    JsonNode review(String path, String kindJson, String resource, JsonNode object) throws Exception {
        ObjectNode req = Json.MAPPER.createObjectNode();
        req.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode r = req.putObject("request");
        r.put("uid", "uid-1").put("operation", "CREATE").put("namespace", "default");
        r.set("kind", Json.MAPPER.readTree(kindJson));
        r.putObject("resource").put("resource", resource);
        r.set("object", object);
        String body = client.post(server.actualPort(), "localhost", path).sendBuffer(Buffer.buffer(req.toString()))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).bodyAsString();
        return Json.MAPPER.readTree(body).path("response");
    }

    @Test
    void aPodCreatedForACloneSetGetsTheReadinessGate() throws Exception {
        JsonNode pod = Json.MAPPER.readTree("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"sample-abcde\","
                + "\"ownerReferences\":[{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"CloneSet\",\"name\":\"sample\","
                + "\"uid\":\"u\",\"controller\":true}]},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}");
        JsonNode response = review("/mutate-pod", "{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"}", "pods", pod);
        assertTrue(response.path("allowed").asBoolean());
        JsonNode patched = JsonPatch.apply(AdmissionReviews.decodePatch(response), pod);
        assertEquals("KruisePodReady", patched.at("/spec/readinessGates/0/conditionType").asText());
    }

    @Test
    void aBadCloneSetIsRejectedWithTheExpectedMessageOnTheLegacyPathToo() throws Exception {
        JsonNode cs = Json.MAPPER.readTree("{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"CloneSet\","
                + "\"metadata\":{\"name\":\"sample\",\"namespace\":\"default\"},\"spec\":{\"replicas\":2,"
                + "\"selector\":{\"matchLabels\":{\"app\":\"a\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"b\"}},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}},"
                + "\"updateStrategy\":{\"type\":\"ReCreate\",\"partition\":0,\"maxUnavailable\":\"20%\",\"maxSurge\":0}}}");
        String kind = "{\"group\":\"apps.kruise.io\",\"version\":\"v1alpha1\",\"kind\":\"CloneSet\"}";
        for (String path : new String[]{"/validate-apps-kruise-io-cloneset", "/validate-apps-kruise-io-v1alpha1-cloneset"}) {
            JsonNode response = review(path, kind, "clonesets", cs);
            assertFalse(response.path("allowed").asBoolean());
            assertEquals(422, response.path("status").path("code").asInt());
            assertTrue(response.path("status").path("message").asText().contains("`selector` does not match template `labels`"),
                    response.toString());
        }
        JsonNode defaulted = review("/mutate-apps-kruise-io-v1alpha1-cloneset", kind, "clonesets", cs);
        JsonNode out = JsonPatch.apply(AdmissionReviews.decodePatch(defaulted), cs);
        assertEquals(10, out.at("/spec/revisionHistoryLimit").asInt());
    }
}
