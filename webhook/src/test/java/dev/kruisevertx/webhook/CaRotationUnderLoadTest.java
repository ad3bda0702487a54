package dev.kruisevertx.webhook;

import dev.kruisevertx.sim.testing.ConflictRetry;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.bench.RotationLoad;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import dev.kruisevertx.webhook.configuration.WebhookConfigurationPatcher;
import dev.kruisevertx.webhook.configuration.WebhookConfigurationPatcherTest;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.pod.PodWebhooks;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 16: the webhook's <em>CA</em> changes (the Secret is replaced by one with a new CA and a serving certificate
 * it signed) while 1,000 admission requests a second flow. The client plays kube-apiserver: it trusts what the
 * webhook configuration's {@code caBundle} for {@code /mutate-pod} says, read through a watch that delivers each
 * change half a second late (a loaded API server), and sends over new clients whenever that bundle changes, so new
 * connections verify against it. No request may fail: before the swap the bundle must already trust the new CA,
 * and the old CA must stay until the old certificate is no longer served; afterwards the old CA is dropped.
 */
@EnableKubernetesMockClient(crud = true)
class CaRotationUnderLoadTest {
    static final int RATE = 1000;
    static final int SECONDS = 20;
    /** kube-apiserver's default webhook timeout: calls begun with the old caBundle have ended by then. */
    static final Duration TRUST_PROPAGATION = Duration.ofSeconds(10);
    static final long WATCH_LAG_MS = 500;
    /** Start-up and the informer's first delivery, on a loaded 2-core CI machine; see WebhookVerticleTest. */
    static final Duration WAIT = Duration.ofMinutes(2);

    KubernetesMockServer server;
    KubernetesClient client;
    Vertx vertx;
    Vertx clientVertx;
    SharedIndexInformer<MutatingWebhookConfiguration> apiServerView;

    @BeforeEach
    void setUp() {
        client = WebhookVerticleTest.patientClient(server);
        vertx = Vertx.vertx();
        clientVertx = Vertx.vertx();
    }

    @AfterEach
    void tearDown() throws Exception {
        if (apiServerView != null) {
            apiServerView.stop();
        }
        clientVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        client.close();
    }

    /** The PEM text of the {@code /mutate-pod} entry's caBundle, or null. */
    static String podCaBundle(MutatingWebhookConfiguration c) {
        if (c == null || c.getWebhooks() == null) {
            return null;
        }
        for (MutatingWebhook wh : c.getWebhooks()) {
            var cc = wh.getClientConfig();
            if (cc != null && cc.getService() != null && "/mutate-pod".equals(cc.getService().getPath())
                    && cc.getCaBundle() != null && !cc.getCaBundle().isEmpty()) {
                return new String(Base64.getDecoder().decode(cc.getCaBundle()), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    static List<BigInteger> serials(String pem) throws Exception {
        List<BigInteger> out = new ArrayList<>();
        for (var c : CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.UTF_8)))) {
            out.add(((X509Certificate) c).getSerialNumber());
        }
        return out;
    }

    @Test
    @Timeout(value = 12, unit = TimeUnit.MINUTES)
    void aNewCaThroughTheSecretFailsNoRequestAtAThousandPerSecond() throws Exception {
        WebhookConfigurationPatcherTest.installChartConfigurations(client);
        AdmissionRegistry registry = new AdmissionRegistry();
        PodWebhooks.register(registry, false);
        // A short resync: the overlap window (two periods) ends while the load still runs, so the old CA is dropped
        // under load too.
        WebhookConfig config = WebhookConfig.defaults().withPort(0).withResyncPeriod(Duration.ofSeconds(2))
                .withInitializeTimeout(WebhookVerticleTest.INITIALIZE);
        WebhookVerticle webhook = new WebhookVerticle(config, client, registry, new ConversionRegistry(),
                new SimpleMeterRegistry(), false, "localhost", java.time.Clock.systemUTC());
        vertx.deployVerticle(webhook).toCompletionStage().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        WebhookVerticleTest.awaitReady(webhook);
        webhook.certSync().setTrustPropagation(TRUST_PROPAGATION);
        CertBundle first = webhook.certSync().current();
        // A wholly new CA, as after a CA renewal or a replaced Secret; issued ahead (key generation is slow).
        CertBundle replaced = new CertIssuer().issueAll(config.dnsName(), Duration.ofDays(3650), Duration.ofDays(3650));

        // kube-apiserver's view of the caBundle, delivered late; every bundle it ever trusted, in order.
        AtomicReference<String> trusted = new AtomicReference<>();
        List<String> bundlesSeen = Collections.synchronizedList(new ArrayList<>());
        apiServerView = client.admissionRegistration().v1().mutatingWebhookConfigurations()
                .withName(WebhookConfigurationPatcher.MUTATING_NAME).inform(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(MutatingWebhookConfiguration obj) {
                        deliver(obj);
                    }

                    @Override
                    public void onUpdate(MutatingWebhookConfiguration oldObj, MutatingWebhookConfiguration newObj) {
                        deliver(newObj);
                    }

                    @Override
                    public void onDelete(MutatingWebhookConfiguration obj, boolean deletedFinalStateUnknown) {
                    }

                    private void deliver(MutatingWebhookConfiguration obj) {
                        String pem = podCaBundle(obj);
                        if (pem != null) {
                            clientVertx.setTimer(WATCH_LAG_MS, id -> {
                                if (!pem.equals(trusted.getAndSet(pem))) {
                                    bundlesSeen.add(pem);
                                }
                            });
                        }
                    }
                }, 0);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!first.caCertPem().equals(trusted.get()) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(first.caCertPem(), trusted.get(), "the configuration carries the first CA alone");

        RotationLoad load = new RotationLoad(clientVertx, webhook.port(), trusted::get, 16);
        Future<Void> running = load.run(RATE, SECONDS, 25);
        clientVertx.setTimer(2000, id -> vertx.executeBlocking(() -> {
            ConflictRetry.run(() -> client.secrets().inNamespace(config.namespace()).withName(config.secretName())
                    .edit(s -> {
                        s.setData(CertificateRotationUnderLoadTest.data(replaced));
                        return s;
                    }));
            return null;
        }));
        running.toCompletionStage().toCompletableFuture().get(4, TimeUnit.MINUTES);
        load.close();

        assertEquals(0, load.failed.get(), "failed requests: " + load.failures + "; bundles trusted (CA serials): "
                + seenNow(bundlesSeen) + ", old CA " + first.caCertificate().getSerialNumber() + ", new CA "
                + replaced.caCertificate().getSerialNumber() + "; serving certificates seen " + load.servedOrder);
        assertEquals((long) RATE * SECONDS, load.succeeded.get());
        assertEquals(replaced.certPem(), webhook.certSync().current().certPem(), "the Secret's certificate is served");
        BigInteger oldCa = first.caCertificate().getSerialNumber();
        BigInteger newCa = replaced.caCertificate().getSerialNumber();
        List<List<BigInteger>> seen = seenNow(bundlesSeen);
        assertTrue(seen.contains(List.of(newCa, oldCa)), "the bundle trusted both CAs during the change; saw " + seen);
        assertTrue(load.servedSerials.contains(replaced.servingCertificate().getSerialNumber()),
                "new connections got the new certificate; saw " + load.servedOrder);
        assertTrue(load.servedSerials.contains(first.servingCertificate().getSerialNumber()),
                "the first certificate was served before the change; saw " + load.servedOrder);

        // Once the overlap window has passed the old CA goes: the bundle is the new CA alone, as OpenKruise's.
        deadline = System.nanoTime() + WAIT.toNanos();
        while (!List.of(newCa).equals(serials(trusted.get())) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(List.of(newCa), serials(trusted.get()), "the old CA is dropped after the overlap window");
        assertEquals(List.of(List.of(oldCa), List.of(newCa, oldCa), List.of(newCa)), seenNow(bundlesSeen),
                "the bundles kube-apiserver trusted, in order");
    }

    private static List<List<BigInteger>> seenNow(List<String> bundles) throws Exception {
        List<List<BigInteger>> out = new ArrayList<>();
        synchronized (bundles) {
            for (String pem : bundles) {
                out.add(serials(pem));
            }
        }
        return out;
    }
}
