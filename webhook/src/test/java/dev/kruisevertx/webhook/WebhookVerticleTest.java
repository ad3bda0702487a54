package dev.kruisevertx.webhook;

import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.sim.testing.ConflictRetry;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.configuration.WebhookConfigurationPatcher;
import dev.kruisevertx.webhook.configuration.WebhookConfigurationPatcherTest;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The whole webhook against the CRUD mock API: certificates in the Secret, configurations patched, readiness. */
@EnableKubernetesMockClient(crud = true)
class WebhookVerticleTest {
    /**
     * Start-up generates keys and syncs the Secret, configurations and CRDs; on a loaded 2-core CI machine that has
     * taken over a minute, so the tests that expect a start give it this long (the product's default is 60 s).
     */
    static final Duration INITIALIZE = Duration.ofMinutes(3);
    /** Longer than {@link #INITIALIZE}: {@code ready()} settles by then either way. */
    static final Duration SETTLED = INITIALIZE.plusMinutes(1);
    static final Duration WAIT = Duration.ofMinutes(2);
    /**
     * fabric8's default 10 s connect and request timeouts are not met by the mock API server's TLS handshake at a
     * load average of 24 on 2 cores (seen: "HTTP connect timed out" on the first create).
     */
    static final int API_TIMEOUT_MS = 60_000;

    KubernetesMockServer server;
    KubernetesClient client;
    Vertx vertx;

    @BeforeEach
    void setUp() {
        client = patientClient(server);
        vertx = Vertx.vertx();
    }

    @AfterEach
    void tearDown() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        client.close();
    }

    static AdmissionRegistry registry() {
        return new AdmissionRegistry()
                .register("/mutate-pod", req -> Future.succeededFuture(AdmissionResponse.allow()))
                .register("/mutate-apps-kruise-io-cloneset", req -> Future.succeededFuture(AdmissionResponse.allow()))
                .register("/validate-apps-kruise-io-cloneset", req -> Future.succeededFuture(AdmissionResponse.allow()));
    }

    /** A client of the mock API server that waits as long as a loaded machine needs. */
    static KubernetesClient patientClient(KubernetesMockServer server) {
        return KubeClients.forTest(new io.fabric8.kubernetes.client.ConfigBuilder(server.createClient().getConfiguration())
                .withConnectionTimeout(API_TIMEOUT_MS).withRequestTimeout(API_TIMEOUT_MS).build());
    }

    WebhookVerticle deploy(WebhookConfig config) throws Exception {
        WebhookVerticle v = new WebhookVerticle(config, client, registry(), new ConversionRegistry(),
                new SimpleMeterRegistry(), false, "localhost", java.time.Clock.systemUTC());
        vertx.deployVerticle(v).toCompletionStage().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        return v;
    }

    static void awaitReady(WebhookVerticle webhook) throws Exception {
        webhook.ready().toCompletionStage().toCompletableFuture().get(SETTLED.toSeconds(), TimeUnit.SECONDS);
    }

    static void awaitHealthy(WebhookVerticle webhook) throws Exception {
        webhook.readiness().check().toCompletionStage().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    String secretCa() {
        Secret s = client.secrets().inNamespace("kruise-system").withName("kruise-webhook-certs").get();
        return s == null ? null : s.getData().get("ca-cert.pem");
    }

    String mutatingCaBundle() {
        return client.admissionRegistration().v1().mutatingWebhookConfigurations()
                .withName(WebhookConfigurationPatcher.MUTATING_NAME).get().getWebhooks().get(0).getClientConfig().getCaBundle();
    }

    @Test
    void becomesReadyPatchesEverythingAndRestoresAHandEditedCaBundle() throws Exception {
        WebhookConfigurationPatcherTest.installChartConfigurations(client);
        client.apiextensions().v1().customResourceDefinitions()
                .resource(WebhookConfigurationPatcherTest.crd("clonesets", "apps.kruise.io", "Webhook")).create();
        // A long resync: restoring the edit below must come from the watch, not the timer.
        WebhookVerticle webhook = deploy(WebhookConfig.defaults().withPort(0).withResyncPeriod(Duration.ofMinutes(10))
                .withInitializeTimeout(INITIALIZE));
        awaitReady(webhook);
        assertTrue(webhook.readiness().isReady());

        String ca = secretCa();
        assertEquals(ca, mutatingCaBundle(), "caBundle is the Secret's CA");
        assertEquals(ca, client.apiextensions().v1().customResourceDefinitions().withName("clonesets.apps.kruise.io").get()
                .getSpec().getConversion().getWebhook().getClientConfig().getCaBundle());
        String caPem = new String(Base64.getDecoder().decode(ca), StandardCharsets.UTF_8);
        assertEquals(webhook.certSync().current().caCertPem(), caPem);

        ConflictRetry.run(() -> client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(WebhookConfigurationPatcher.MUTATING_NAME)
                .edit(c -> {
                    c.getWebhooks().get(0).getClientConfig().setCaBundle(Base64.getEncoder().encodeToString("edited".getBytes()));
                    return c;
                }));
        await("the hand-edited caBundle to be restored", () -> ca.equals(mutatingCaBundle()));
        awaitHealthy(webhook);
    }

    @Test
    void shortLivedCertificatesRotateAndStayServed() throws Exception {
        WebhookConfigurationPatcherTest.installChartConfigurations(client);
        WebhookConfig config = WebhookConfig.defaults().withPort(0).withResyncPeriod(Duration.ofMillis(500))
                .withCertLifetimes(Duration.ofSeconds(20), Duration.ofDays(1), Duration.ofHours(1), Duration.ofSeconds(16))
                .withInitializeTimeout(INITIALIZE);
        WebhookVerticle webhook = deploy(config);
        awaitReady(webhook);
        Set<String> seen = new HashSet<>();
        String ca = webhook.certSync().current().caCertPem();
        await("two rotations", () -> {
            seen.add(webhook.certSync().current().certPem());
            return seen.size() >= 3;
        });
        assertEquals(ca, webhook.certSync().current().caCertPem(), "the CA is kept while it has life left");
        // Readiness over HTTPS still passes with the rotated serving certificate.
        awaitHealthy(webhook);
    }

    @Test
    void externalCertificatesAreServedAndOnlyVerified() throws Exception {
        dev.kruisevertx.webhook.certs.CertBundle provided = dev.kruisevertx.webhook.testing.TestCerts.localhost();
        java.util.function.Function<String, String> b64 = t -> Base64.getEncoder().encodeToString(t.getBytes(StandardCharsets.UTF_8));
        client.secrets().inNamespace("kruise-system").resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
                .withNewMetadata().withName("kruise-webhook-certs").withNamespace("kruise-system").endMetadata()
                .withData(Map.of("ca.crt", b64.apply(provided.caCertPem()), "tls.crt", b64.apply(provided.certPem()),
                        "tls.key", b64.apply(provided.keyPem()))).build()).create();
        WebhookConfigurationPatcherTest.installChartConfigurations(client);
        // The operator who provides the certificates also sets the caBundles.
        new WebhookConfigurationPatcher(client, WebhookConfig.defaults(), false)
                .ensure(provided.caBundle(), registry().paths());
        WebhookVerticle webhook = new WebhookVerticle(WebhookConfig.defaults().withPort(0).withInitializeTimeout(INITIALIZE),
                client, registry(), new ConversionRegistry(), new SimpleMeterRegistry(), true, "localhost",
                java.time.Clock.systemUTC());
        vertx.deployVerticle(webhook).toCompletionStage().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        awaitReady(webhook);
        assertEquals(provided.certPem(), webhook.certSync().current().certPem());
        assertEquals(Set.of("ca.crt", "tls.crt", "tls.key"),
                client.secrets().inNamespace("kruise-system").withName("kruise-webhook-certs").get().getData().keySet(),
                "external certificates are never rewritten");
    }

    @Test
    void startupFailsWithAClearMessageAfterTheInitializeTimeout() throws Exception {
        // Long enough for the first certificate sync to reach the missing configuration on a loaded machine: with 2 s,
        // at a load average of 24, the sync had not finished and the message could not name the configuration.
        WebhookVerticle webhook = deploy(WebhookConfig.defaults().withPort(0).withInitializeTimeout(Duration.ofSeconds(20)));
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> awaitReady(webhook));
        String message = e.getCause().getMessage();
        assertTrue(message.contains("--webhook-initialize-timeout"), message);
        assertTrue(message.contains("kruise-mutating-webhook-configuration not found"), message);
        assertTrue(!webhook.readiness().isReady());
    }

    @Test
    void configFromEnvironment() {
        WebhookConfig c = WebhookConfig.fromEnv(Map.of("POD_NAMESPACE", "ns1", "WEBHOOK_PORT", "9443",
                "CERTS_RENEW_BEFORE", "30d", "SECRET_NAME", "s"), false);
        assertEquals("kruise-webhook-service.ns1.svc", c.dnsName());
        assertEquals(9443, c.port());
        assertEquals(WebhookConfig.CertWriterType.SECRET, c.certWriter());
        assertEquals(java.time.Period.ofDays(30), c.renewBefore());
        assertEquals(WebhookConfig.CertWriterType.FS, WebhookConfig.fromEnv(Map.of("WEBHOOK_HOST", "h"), false).certWriter());
        assertEquals("h", WebhookConfig.fromEnv(Map.of("WEBHOOK_HOST", "h"), false).dnsName());
        assertEquals(WebhookConfig.CertWriterType.FS, WebhookConfig.fromEnv(Map.of("WEBHOOK_CERT_WRITER", "fs"), false).certWriter());
        assertEquals(WebhookConfig.CertWriterType.EXTERNAL, WebhookConfig.fromEnv(Map.of("WEBHOOK_HOST", "h"), true).certWriter());
        assertEquals(Duration.ofSeconds(60), c.initializeTimeout());
        assertEquals(8L * 1024 * 1024, c.maxBodyBytes());
        assertEquals(Duration.ofSeconds(90), c.withFlags(java.util.List.of("--webhook-initialize-timeout=1m30s")).initializeTimeout());
        assertEquals(Duration.ofSeconds(5), c.withFlags(java.util.List.of("--other", "--webhook-initialize-timeout", "5s")).initializeTimeout());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> WebhookConfig.fromEnv(Map.of("CERTS_RENEW_BEFORE", "soon"), false));
        assertTrue(bad.getMessage().contains("CERTS_RENEW_BEFORE"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> WebhookConfig.fromEnv(Map.of("WEBHOOK_PORT", "x"), false))
                .getMessage().contains("WEBHOOK_PORT"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> WebhookConfig.fromEnv(Map.of("WEBHOOK_CERT_WRITER", "vault"), false))
                .getMessage().contains("WEBHOOK_CERT_WRITER"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withFlags(java.util.List.of("--webhook-initialize-timeout=forever")))
                .getMessage().contains("--webhook-initialize-timeout"));
    }
}
