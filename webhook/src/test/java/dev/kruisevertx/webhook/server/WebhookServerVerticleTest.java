package dev.kruisevertx.webhook.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.AdmissionReviews;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.TypedMutatingHandler;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.testing.TestCerts;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(VertxExtension.class)
class WebhookServerVerticleTest {
    static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\"},"
            + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}";

    Vertx vertx;
    WebhookServerVerticle server;
    SimpleMeterRegistry registry;
    WebClient client;
    CertBundle certs;

    static String review(String apiVersion, String uid) {
        return "{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"" + uid + "\","
                + "\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},\"resource\":{\"resource\":\"pods\"},"
                + "\"operation\":\"CREATE\",\"namespace\":\"ns\",\"object\":" + POD + "}}";
    }

    @BeforeEach
    void setUp() throws Exception {
        vertx = Vertx.vertx();
        certs = TestCerts.localhost();
        registry = new SimpleMeterRegistry();
        AdmissionRegistry admission = new AdmissionRegistry()
                .register("/mutate-pod", new TypedMutatingHandler<>(Pod.class, (req, pod) -> pod.getMetadata().getLabels().put("seen", "true")))
                .register("/validate-apps-kruise-io-cloneset", req -> Future.succeededFuture(AdmissionResponse.denied(422, "nope")))
                .register("/explode", req -> {
                    throw new IllegalStateException("boom");
                });
        ConversionRegistry conversion = new ConversionRegistry().register("apps.kruise.io", "Toy", (o, v) -> o);
        server = new WebhookServerVerticle("localhost", 0, 4096, admission, conversion, new WebhookMetrics(registry), certs);
        vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        client = WebClient.create(vertx, new WebClientOptions().setSsl(true).setVerifyHost(true)
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(certs.caCertPem()))));
    }

    @AfterEach
    void tearDown() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    HttpResponse<Buffer> post(String path, String body) throws Exception {
        return client.post(server.actualPort(), "localhost", path).sendBuffer(Buffer.buffer(body))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void healthzOverHttpsTrustingTheCa() throws Exception {
        HttpResponse<Buffer> r = client.get(server.actualPort(), "localhost", "/healthz").send()
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertEquals(200, r.statusCode());
        assertEquals("ok", r.bodyAsString());
    }

    @Test
    void mutatesAndAnswersInTheRequestVersion() throws Exception {
        for (String v : new String[]{AdmissionReviews.V1, AdmissionReviews.V1BETA1}) {
            HttpResponse<Buffer> r = post("/mutate-pod", review(v, "uid-" + v));
            assertEquals(200, r.statusCode());
            JsonNode out = Json.MAPPER.readTree(r.bodyAsString());
            assertEquals(v, out.path("apiVersion").asText());
            assertEquals("uid-" + v, out.path("response").path("uid").asText());
            assertTrue(out.path("response").path("allowed").asBoolean());
            assertTrue(AdmissionReviews.decodePatch(out.path("response")).toString().contains("/metadata/labels"));
        }
        assertEquals(2.0, registry.get(WebhookMetrics.REQUESTS).tags("path", "/mutate-pod", "result", "patched").counter().count());
        assertEquals(2L, registry.get(WebhookMetrics.DURATION).tags("path", "/mutate-pod").timer().count());
    }

    @Test
    void legacyPathAnswersAndDenialsCarryTheMessage() throws Exception {
        JsonNode out = Json.MAPPER.readTree(post("/validate-apps-kruise-io-v1alpha1-cloneset", review(AdmissionReviews.V1, "u")).bodyAsString());
        assertFalse(out.path("response").path("allowed").asBoolean());
        assertEquals("nope", out.path("response").path("status").path("message").asText());
        assertEquals(1.0, registry.get(WebhookMetrics.REQUESTS).tags("path", "/validate-apps-kruise-io-v1alpha1-cloneset", "result", "denied").counter().count());
    }

    @Test
    void badInputGets4xxWithAClearMessage() throws Exception {
        HttpResponse<Buffer> notJson = post("/mutate-pod", "{{{");
        assertEquals(400, notJson.statusCode());
        assertTrue(notJson.bodyAsString().contains("not valid JSON"), notJson.bodyAsString());

        HttpResponse<Buffer> wrongKind = post("/mutate-pod", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}");
        assertEquals(400, wrongKind.statusCode());
        assertTrue(wrongKind.bodyAsString().contains("expected kind AdmissionReview"));

        HttpResponse<Buffer> noUid = post("/mutate-pod", review(AdmissionReviews.V1, "").replace("\"uid\":\"\",", ""));
        assertEquals(400, noUid.statusCode());
        assertTrue(noUid.bodyAsString().contains("request.uid is missing"));

        HttpResponse<Buffer> unknown = post("/mutate-nothing", review(AdmissionReviews.V1, "u"));
        assertEquals(404, unknown.statusCode());
        assertTrue(unknown.bodyAsString().contains("no webhook is registered for path /mutate-nothing"));

        HttpResponse<Buffer> big = post("/mutate-pod", "x".repeat(10_000));
        assertEquals(413, big.statusCode());
        assertTrue(big.bodyAsString().contains("exceeds the limit of 4096 bytes"), big.bodyAsString());

        HttpResponse<Buffer> get = client.get(server.actualPort(), "localhost", "/mutate-pod").send()
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertEquals(405, get.statusCode());

        assertEquals(1.0, registry.get(WebhookMetrics.REQUESTS).tags("path", "unknown", "result", "not_found").counter().count());
        assertEquals(3.0, registry.get(WebhookMetrics.REQUESTS).tags("path", "/mutate-pod", "result", "bad_request").counter().count());
    }

    /**
     * Issue 16: a review with a supported apiVersion and a uid is answered as a review, so kube-apiserver shows the
     * message (a plain 400 would only be "failed calling webhook"); a body that says it is not JSON gets 415 unread.
     */
    @Test
    void answerableBadReviewsAreDeniedInAReviewAndOtherContentTypesGet415() throws Exception {
        HttpResponse<Buffer> badOperation = post("/mutate-pod", review(AdmissionReviews.V1BETA1, "u-7")
                .replace("\"operation\":\"CREATE\"", "\"operation\":7"));
        assertEquals(200, badOperation.statusCode());
        JsonNode out = Json.MAPPER.readTree(badOperation.bodyAsString());
        assertEquals(AdmissionReviews.V1BETA1, out.path("apiVersion").asText());
        assertEquals("u-7", out.path("response").path("uid").asText());
        assertFalse(out.path("response").path("allowed").asBoolean(true));
        assertEquals(400, out.path("response").path("status").path("code").asInt());
        assertTrue(out.path("response").path("status").path("message").asText()
                .contains("request.operation must be one of CREATE, UPDATE, DELETE or CONNECT, got a number"), out.toString());

        HttpResponse<Buffer> form = client.post(server.actualPort(), "localhost", "/mutate-pod")
                .putHeader("content-type", "application/x-www-form-urlencoded")
                .sendBuffer(Buffer.buffer(review(AdmissionReviews.V1, "u-8")))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertEquals(415, form.statusCode());
        assertTrue(form.bodyAsString().contains("content type 'application/x-www-form-urlencoded' is not supported"),
                form.bodyAsString());
        HttpResponse<Buffer> json = client.post(server.actualPort(), "localhost", "/mutate-pod")
                .putHeader("content-type", "application/json; charset=utf-8")
                .sendBuffer(Buffer.buffer(review(AdmissionReviews.V1, "u-9")))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertEquals(200, json.statusCode());
        assertEquals("u-9", Json.MAPPER.readTree(json.bodyAsString()).path("response").path("uid").asText());

        HttpResponse<Buffer> badPod = post("/mutate-pod", review(AdmissionReviews.V1, "u-10")
                .replace("\"containers\":[", "\"containers\":[\"\",").replace("\"kind\":\"Pod\",\"metadata", "\"kind\":\"Pod\",\"metadata"));
        String message = Json.MAPPER.readTree(badPod.bodyAsString()).path("response").path("status").path("message").asText();
        assertTrue(!message.contains("io.fabric8") && !message.contains("java."), message);
    }

    @Test
    void handlerFailureBecomesAnErroredReview() throws Exception {
        HttpResponse<Buffer> r = post("/explode", review(AdmissionReviews.V1, "u"));
        assertEquals(200, r.statusCode());
        JsonNode out = Json.MAPPER.readTree(r.bodyAsString());
        assertFalse(out.path("response").path("allowed").asBoolean());
        assertEquals(500, out.path("response").path("status").path("code").asInt());
        assertTrue(out.path("response").path("status").path("message").asText().contains("boom"));
    }

    @Test
    void convertEndpoint() throws Exception {
        HttpResponse<Buffer> r = post("/convert", "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\","
                + "\"request\":{\"uid\":\"c\",\"desiredAPIVersion\":\"apps.kruise.io/v1beta1\",\"objects\":["
                + "{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"Toy\",\"metadata\":{\"name\":\"t\"}}]}}");
        assertEquals(200, r.statusCode());
        JsonNode out = Json.MAPPER.readTree(r.bodyAsString());
        assertEquals("Success", out.path("response").path("result").path("status").asText());
        assertEquals("apps.kruise.io/v1beta1", out.path("response").path("convertedObjects").get(0).path("apiVersion").asText());
        HttpResponse<Buffer> bad = post("/convert", "nope");
        assertEquals(400, bad.statusCode());
        assertTrue(bad.bodyAsString().contains("not valid JSON"));
    }

    @Test
    void clientsNotTrustingTheCaAreRefused() throws Exception {
        WebClient untrusting = WebClient.create(vertx, new WebClientOptions().setSsl(true).setVerifyHost(true));
        Throwable failure = untrusting.get(server.actualPort(), "localhost", "/healthz").send()
                .toCompletionStage().toCompletableFuture().handle((r, e) -> e).get(30, TimeUnit.SECONDS);
        assertTrue(failure != null, "TLS must fail without the CA");
    }
}
