package dev.kruisevertx.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code pods/eviction}: PodDisruptionBudgets (429 as kube-apiserver answers) and validating webhooks on it. */
class EvictionTest {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static Vertx webhookVertx;
    static HttpServer webhook;
    static ClusterFixture fixture;
    static KubernetesClient client;
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final List<JsonNode> reviews = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        TestCertificates certs = TestCertificates.selfSigned("localhost");
        String caBundle = Base64.getEncoder().encodeToString(certs.certPem().getBytes(StandardCharsets.UTF_8));
        webhookVertx = Vertx.vertx();
        webhook = webhookVertx.createHttpServer(new HttpServerOptions().setSsl(true).setHost("127.0.0.1").setPort(0)
                        .setKeyCertOptions(new PemKeyCertOptions().addCertValue(Buffer.buffer(certs.certPem())).addKeyValue(Buffer.buffer(certs.keyPem()))))
                .requestHandler(req -> req.body().onSuccess(body -> {
                    JsonNode review;
                    try {
                        review = MAPPER.readTree(body.getBytes());
                    } catch (java.io.IOException e) {
                        req.response().setStatusCode(400).end();
                        return;
                    }
                    reviews.add(review);
                    ObjectNode out = MAPPER.createObjectNode();
                    out.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
                    ObjectNode response = out.putObject("response");
                    response.put("uid", review.path("request").path("uid").asText());
                    boolean protectedPod = review.path("request").path("name").asText().startsWith("protected");
                    response.put("allowed", !protectedPod);
                    if (protectedPod) {
                        response.putObject("status").put("code", 403).put("message", "this pod may not be evicted");
                    }
                    req.response().putHeader("Content-Type", "application/json").end(out.toString());
                })).listen().await(20, TimeUnit.SECONDS);
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(2));
        client = fixture.client();
        ManifestApplier.apply(client, """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: eviction-guard}
                webhooks:
                - name: eviction.kruise-vertx.dev
                  admissionReviewVersions: [v1]
                  sideEffects: None
                  clientConfig:
                    caBundle: %s
                    url: https://127.0.0.1:%d/validate
                  rules:
                  - {apiGroups: [""], apiVersions: [v1], resources: [pods/eviction], operations: [CREATE]}
                """.formatted(caBundle, webhook.actualPort()));
    }

    @AfterAll
    static void stop() {
        fixture.close();
        webhookVertx.close();
    }

    static void runningPod(String name, String app) {
        client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName(name).addToLabels("app", app).endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("nginx:1").endContainer().endSpec().build()).create();
        Await.waitFor("pod " + name + " Ready", TIMEOUT, () -> client.pods().inNamespace("default").withName(name).get(),
                p -> p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())));
    }

    /** POSTs an Eviction; returns the status code and body. */
    static HttpResponse<String> evict(String pod) throws Exception {
        String body = "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"" + pod + "\",\"namespace\":\"default\"}}";
        HttpRequest req = HttpRequest.newBuilder(URI.create(fixture.cluster().url() + "/api/v1/namespaces/default/pods/" + pod + "/eviction"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return HTTP.send(req, HttpResponse.BodyHandlers.ofString());
    }

    static PodDisruptionBudget pdb(String name) {
        return client.policy().v1().podDisruptionBudget().inNamespace("default").withName(name).get();
    }

    @Test
    void budgetBlocksEvictionWith429AndAllowsItWhenHealthyPodsAreSpare() throws Exception {
        ManifestApplier.apply(client, """
                apiVersion: policy/v1
                kind: PodDisruptionBudget
                metadata: {name: web, namespace: default}
                spec:
                  minAvailable: 2
                  selector: {matchLabels: {app: web}}
                """);
        runningPod("web-0", "web");
        runningPod("web-1", "web");
        Await.waitFor("budget status", TIMEOUT, () -> pdb("web").getStatus(),
                s -> s != null && Integer.valueOf(2).equals(s.getCurrentHealthy()) && Integer.valueOf(0).equals(s.getDisruptionsAllowed()));
        PodDisruptionBudget budget = pdb("web");
        assertEquals(2, budget.getStatus().getDesiredHealthy());
        assertEquals(2, budget.getStatus().getExpectedPods());

        HttpResponse<String> refused = evict("web-0");
        assertEquals(429, refused.statusCode(), refused.body());
        JsonNode status = MAPPER.readTree(refused.body());
        assertEquals("TooManyRequests", status.path("reason").asText());
        assertEquals("Cannot evict pod as it would violate the pod's disruption budget.", status.path("message").asText());
        assertEquals("The disruption budget web needs 2 healthy pods and has 2 currently",
                status.path("details").path("causes").get(0).path("message").asText());
        assertEquals(null, client.pods().inNamespace("default").withName("web-0").get().getMetadata().getDeletionTimestamp());

        runningPod("web-2", "web");
        Await.waitFor("a disruption allowed", TIMEOUT, () -> pdb("web").getStatus().getDisruptionsAllowed(), n -> n == 1);
        HttpResponse<String> allowed = evict("web-0");
        assertEquals(201, allowed.statusCode(), allowed.body());
        Pod evicted = client.pods().inNamespace("default").withName("web-0").get();
        assertTrue(evicted == null || evicted.getMetadata().getDeletionTimestamp() != null, "the evicted pod is being deleted");
        // The budget is spent: the next eviction is refused at once.
        assertEquals(429, evict("web-1").statusCode());
        // fabric8's evict() sees the same answers.
        assertEquals(false, client.pods().inNamespace("default").withName("web-2").evict());
    }

    @Test
    void maxUnavailablePercentCountsThePodsExpected() {
        ManifestApplier.apply(client, """
                apiVersion: policy/v1
                kind: PodDisruptionBudget
                metadata: {name: api, namespace: default}
                spec:
                  maxUnavailable: 50%
                  selector: {matchLabels: {app: api}}
                """);
        for (int i = 0; i < 4; i++) {
            runningPod("api-" + i, "api");
        }
        var s = Await.waitFor("budget status", TIMEOUT, () -> pdb("api").getStatus(),
                x -> x != null && Integer.valueOf(4).equals(x.getCurrentHealthy()));
        assertEquals(4, s.getExpectedPods());
        assertEquals(2, s.getDesiredHealthy());
        assertEquals(2, s.getDisruptionsAllowed());
        assertTrue(client.pods().inNamespace("default").withName("api-0").evict());
    }

    @Test
    void validatingWebhookOnPodsEvictionCanRefuse() throws Exception {
        runningPod("protected-0", "guarded");
        HttpResponse<String> refused = evict("protected-0");
        assertEquals(403, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("admission webhook \\\"eviction.kruise-vertx.dev\\\" denied the request: this pod may not be evicted"),
                refused.body());
        assertNotNull(client.pods().inNamespace("default").withName("protected-0").get());
        JsonNode review = reviews.stream().filter(r -> "protected-0".equals(r.path("request").path("name").asText()))
                .reduce((a, b) -> b).orElseThrow().path("request");
        assertEquals("CREATE", review.path("operation").asText());
        assertEquals("eviction", review.path("subResource").asText());
        assertEquals("pods", review.path("resource").path("resource").asText());
        assertEquals("policy", review.path("kind").path("group").asText());
        assertEquals("v1", review.path("kind").path("version").asText());
        assertEquals("Eviction", review.path("kind").path("kind").asText());
        assertEquals("Eviction", review.path("object").path("kind").asText());

        runningPod("free-0", "guarded");
        assertEquals(201, evict("free-0").statusCode());
    }
}
