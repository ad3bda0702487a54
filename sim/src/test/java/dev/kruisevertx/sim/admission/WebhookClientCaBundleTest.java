package dev.kruisevertx.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded API server's webhook client verifies against a caBundle of several certificates, as kube-apiserver
 * does: during a webhook's CA change the bundle holds the new and the old CA, and a server with a certificate of
 * either must be trusted, whatever its position in the bundle.
 */
class WebhookClientCaBundleTest {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static Vertx vertx;
    static HttpServer server;
    static TestCertificates served;
    static TestCertificates other;
    static TestCertificates third;

    @BeforeAll
    static void start() throws Exception {
        served = TestCertificates.selfSigned("webhook.kruise-system.svc", "localhost");
        other = TestCertificates.selfSigned("webhook.kruise-system.svc", "localhost");
        third = TestCertificates.selfSigned("other.example");
        vertx = Vertx.vertx();
        server = vertx.createHttpServer(new HttpServerOptions().setSsl(true).setHost("127.0.0.1").setPort(0)
                        .setKeyCertOptions(new PemKeyCertOptions().addCertValue(Buffer.buffer(served.certPem()))
                                .addKeyValue(Buffer.buffer(served.keyPem()))))
                .requestHandler(req -> req.body().onSuccess(b -> req.response().putHeader("content-type", "application/json")
                        .end("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                                + "\"response\":{\"uid\":\"u\",\"allowed\":true}}")))
                .listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    static String bundle(String... pems) {
        return Base64.getEncoder().encodeToString(String.join("", pems).getBytes(StandardCharsets.UTF_8));
    }

    JsonNode post(String caBundle) throws Exception {
        return post(new WebhookClient(vertx, Map.of("kruise-system/webhook", "127.0.0.1:" + server.actualPort())),
                caBundle);
    }

    static JsonNode post(WebhookClient client, String caBundle) throws Exception {
        ObjectNode cc = MAPPER.createObjectNode();
        cc.put("caBundle", caBundle);
        cc.putObject("service").put("namespace", "kruise-system").put("name", "webhook").put("path", "/validate");
        ObjectNode review = MAPPER.createObjectNode().put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        review.putObject("request").put("uid", "u");
        return client.post(cc, 10_000, review).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void theServedCertificateIsTrustedAnywhereInABundleOfSeveral() throws Exception {
        assertTrue(post(bundle(served.certPem())).path("response").path("allowed").asBoolean());
        assertTrue(post(bundle(other.certPem(), served.certPem())).path("response").path("allowed").asBoolean(),
                "served CA second: the new CA is written first during a change");
        assertTrue(post(bundle(served.certPem(), other.certPem())).path("response").path("allowed").asBoolean());
        assertTrue(post(bundle(third.certPem(), other.certPem(), served.certPem())).path("response").path("allowed").asBoolean());
    }

    @Test
    void aBundleWithoutTheServedCaIsRefused() {
        ExecutionException e = assertThrows(ExecutionException.class, () -> post(bundle(other.certPem(), third.certPem())));
        assertEquals(true, String.valueOf(e.getCause()).contains("SSL") || String.valueOf(e.getCause().getCause()).contains("PKIX"),
                String.valueOf(e.getCause()));
    }

    @Test
    void rotationsKeepABoundedNumberOfClientsAndTheCurrentBundleStillWorks() throws Exception {
        WebhookClient client = new WebhookClient(vertx, Map.of("kruise-system/webhook", "127.0.0.1:" + server.actualPort()));
        // Each rotation writes a new bundle (new CA first, the served one kept): one client per distinct bundle.
        for (int i = 0; i < WebhookClient.MAX_CLIENTS * 3; i++) {
            TestCertificates rotated = TestCertificates.selfSigned("rotated-" + i + ".example");
            assertTrue(post(client, bundle(rotated.certPem(), served.certPem())).path("response").path("allowed")
                    .asBoolean());
            assertTrue(client.openClients() <= WebhookClient.MAX_CLIENTS, "open clients: " + client.openClients());
        }
        assertEquals(WebhookClient.MAX_CLIENTS, client.openClients());
        assertTrue(post(client, bundle(served.certPem())).path("response").path("allowed").asBoolean(),
                "a bundle seen long ago gets a fresh client");
    }
}
