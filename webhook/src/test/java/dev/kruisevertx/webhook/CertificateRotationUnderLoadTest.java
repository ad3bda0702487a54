package dev.kruisevertx.webhook;

import dev.kruisevertx.sim.testing.ConflictRetry;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.bench.RotationLoad;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import dev.kruisevertx.webhook.certs.SecretCertWriter;
import dev.kruisevertx.webhook.configuration.WebhookConfigurationPatcherTest;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.pod.PodWebhooks;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 16: the serving certificate is rotated through the Secret (as another replica, or an operator, would) while
 * 1,000 admission requests a second flow over kept-alive connections and new ones. The whole chain runs: the
 * Secret's watch triggers the sync loop, which reads the Secret and swaps the certificate into the running server.
 * No request fails, open connections carry on, and new connections get the new certificate.
 */
@EnableKubernetesMockClient(crud = true)
class CertificateRotationUnderLoadTest {
    static final int RATE = 1000;
    static final int SECONDS = 6;

    KubernetesMockServer server;
    KubernetesClient client;
    Vertx vertx;
    Vertx clientVertx;

    @BeforeEach
    void setUp() {
        client = WebhookVerticleTest.patientClient(server);
        vertx = Vertx.vertx();
        clientVertx = Vertx.vertx();
    }

    @AfterEach
    void tearDown() throws Exception {
        clientVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        client.close();
    }

    @Test
    @Timeout(value = 12, unit = TimeUnit.MINUTES)
    void aRotationThroughTheSecretFailsNoRequestAtAThousandPerSecond() throws Exception {
        WebhookConfigurationPatcherTest.installChartConfigurations(client);
        AdmissionRegistry registry = new AdmissionRegistry();
        PodWebhooks.register(registry, false);
        // A long resync: the rotation must come from the Secret's watch.
        WebhookConfig config = WebhookConfig.defaults().withPort(0).withResyncPeriod(Duration.ofMinutes(10))
                .withInitializeTimeout(WebhookVerticleTest.INITIALIZE);
        WebhookVerticle webhook = new WebhookVerticle(config, client, registry, new ConversionRegistry(),
                new SimpleMeterRegistry(), false, "localhost", java.time.Clock.systemUTC());
        vertx.deployVerticle(webhook).toCompletionStage().toCompletableFuture()
                .get(WebhookVerticleTest.WAIT.toSeconds(), TimeUnit.SECONDS);
        WebhookVerticleTest.awaitReady(webhook);
        CertBundle first = webhook.certSync().current();
        // Issued ahead (key generation takes a while); valid beyond the renewal window, so the writer keeps it.
        CertBundle renewed = new CertIssuer().issueServing(first, config.dnsName(), Duration.ofDays(3650));

        RotationLoad load = new RotationLoad(clientVertx, webhook.port(), first.caCertPem(), 16);
        Future<Void> running = load.run(RATE, SECONDS, 25);
        clientVertx.setTimer(SECONDS * 1000L / 3, id -> vertx.executeBlocking(() -> {
            ConflictRetry.run(() -> client.secrets().inNamespace(config.namespace()).withName(config.secretName())
                    .edit(s -> {
                        s.setData(data(renewed));
                        return s;
                    }));
            return null;
        }));
        running.toCompletionStage().toCompletableFuture().get(4, TimeUnit.MINUTES);
        load.close();

        assertEquals(0, load.failed.get(), "failed requests: " + load.failures);
        assertEquals((long) RATE * SECONDS, load.succeeded.get());
        assertEquals(renewed.certPem(), webhook.certSync().current().certPem(), "the Secret's certificate is served");
        assertTrue(load.servedSerials.contains(renewed.servingCertificate().getSerialNumber()),
                "new connections must get the renewed certificate; saw " + load.servedOrder);
        assertTrue(load.servedSerials.contains(first.servingCertificate().getSerialNumber()),
                "the first certificate was served before the rotation; saw " + load.servedOrder);
    }

    /** The Secret's data for {@code bundle}, under the keys the Secret writer reads. */
    static Map<String, String> data(CertBundle bundle) {
        Map<String, String> data = new LinkedHashMap<>();
        data.put(SecretCertWriter.CA_KEY, b64(bundle.caKeyPem()));
        data.put(SecretCertWriter.CA_CERT, b64(bundle.caCertPem()));
        data.put(SecretCertWriter.SERVER_KEY, b64(bundle.keyPem()));
        data.put(SecretCertWriter.SERVER_CERT, b64(bundle.certPem()));
        data.put(SecretCertWriter.TLS_KEY, b64(bundle.keyPem()));
        data.put(SecretCertWriter.TLS_CERT, b64(bundle.certPem()));
        return data;
    }

    static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
