package dev.kruisevertx.webhook.certs;

import dev.kruisevertx.kube.KubeClients;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.Period;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@EnableKubernetesMockClient(crud = true)
class CertWritersTest {
    static final String NS = "kruise-system";
    static final String DNS = "kruise-webhook-service.kruise-system.svc";

    KubernetesMockServer server;
    KubernetesClient client;

    @BeforeEach
    void setUp() {
        client = KubeClients.forTest(server.createClient().getConfiguration());
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    private static CertPolicy policy(Clock clock) {
        return new CertPolicy(Duration.ofDays(3650), Duration.ofDays(3650), Duration.ofDays(365), Period.ofMonths(6), clock);
    }

    @Test
    void secretWriterCreatesOpenKruiseKeysAndReusesValidCerts() {
        SecretCertWriter writer = new SecretCertWriter(client, NS, "kruise-webhook-certs", policy(Clock.systemUTC()));
        CertBundle first = writer.ensure(DNS);
        Secret secret = client.secrets().inNamespace(NS).withName("kruise-webhook-certs").get();
        assertEquals(java.util.Set.of("ca-key.pem", "ca-cert.pem", "key.pem", "cert.pem", "tls.key", "tls.crt"),
                secret.getData().keySet());
        assertEquals(first.certPem(), decode(secret.getData().get("tls.crt")));
        assertEquals(first.keyPem(), decode(secret.getData().get("tls.key")));
        CertBundle second = writer.ensure(DNS);
        assertTrue(first.sameAs(second), "valid certificates must be reused");
        String rv = client.secrets().inNamespace(NS).withName("kruise-webhook-certs").get().getMetadata().getResourceVersion();
        assertEquals(secret.getMetadata().getResourceVersion(), rv, "no write when nothing changes");
    }

    @Test
    void secretWriterRenewsCertsInsideTheRenewalWindowAndKeepsTheCa() {
        // Issued with one-year serving validity: inside a 13-month renewal window straight away.
        CertPolicy shortLived = new CertPolicy(Duration.ofDays(365), Duration.ofDays(3650), Duration.ofDays(365),
                Period.ofMonths(13), Clock.systemUTC());
        SecretCertWriter writer = new SecretCertWriter(client, NS, "certs", shortLived);
        CertBundle first = writer.ensure(DNS);
        CertBundle second = writer.ensure(DNS);
        assertNotEquals(first.certPem(), second.certPem(), "serving certificate must be renewed");
        assertEquals(first.caCertPem(), second.caCertPem(), "a CA with years left is kept");
        assertEquals(second.certPem(), decode(client.secrets().inNamespace(NS).withName("certs").get().getData().get("cert.pem")));
    }

    @Test
    void secretWriterReplacesIncompleteOrForeignSecretsButKeepsTheirMetadata() {
        client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("certs").withNamespace(NS)
                .addToLabels("app", "chart").endMetadata().withData(Map.of("unrelated", "eA==")).build()).create();
        CertBundle b = new SecretCertWriter(client, NS, "certs", policy(Clock.systemUTC())).ensure(DNS);
        Secret s = client.secrets().inNamespace(NS).withName("certs").get();
        assertEquals("chart", s.getMetadata().getLabels().get("app"));
        assertEquals(b.caCertPem(), decode(s.getData().get("ca-cert.pem")));
    }

    @Test
    void secretWriterRegeneratesTheCaWhenItIsNearItsEnd() {
        Clock past = Clock.fixed(Instant.now().minus(Duration.ofDays(3500)), ZoneOffset.UTC);
        CertBundle old = new SecretCertWriter(client, NS, "certs", policy(past)).ensure(DNS);
        CertBundle renewed = new SecretCertWriter(client, NS, "certs", policy(Clock.systemUTC())).ensure(DNS);
        assertNotEquals(old.caCertPem(), renewed.caCertPem());
    }

    @Test
    void serviceNameChangeReissues() {
        SecretCertWriter writer = new SecretCertWriter(client, NS, "certs", policy(Clock.systemUTC()));
        CertBundle a = writer.ensure(DNS);
        CertBundle b = writer.ensure("other.kruise-system.svc");
        assertNotEquals(a.certPem(), b.certPem());
        assertTrue(CertValidator.dnsNames(b.servingCertificate()).contains("other.kruise-system.svc"));
    }

    @Test
    void replicasRacingToCreateTheSecretAllServeTheSameCertificates() throws Exception {
        int replicas = 3;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(replicas);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.List<java.util.concurrent.Future<CertBundle>> results = new java.util.ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            SecretCertWriter writer = new SecretCertWriter(client, NS, "raced", policy(Clock.systemUTC()));
            results.add(pool.submit(() -> {
                go.await();
                return writer.ensure(DNS);
            }));
        }
        go.countDown();
        for (java.util.concurrent.Future<CertBundle> r : results) {
            CertBundle b = r.get(120, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(decode(client.secrets().inNamespace(NS).withName("raced").get().getData().get("cert.pem")), b.certPem());
        }
        pool.shutdown();
    }

    @Test
    void fsWriterWritesAllFilesAndReusesThem(@TempDir Path dir) throws Exception {
        Path certDir = dir.resolve("certs");
        FsCertWriter writer = new FsCertWriter(certDir, policy(Clock.systemUTC()));
        CertBundle a = writer.ensure("webhook.example.com");
        for (String f : new String[]{"ca-key.pem", "ca-cert.pem", "key.pem", "cert.pem", "tls.key", "tls.crt"}) {
            assertTrue(Files.exists(certDir.resolve(f)), f);
        }
        assertEquals(a.certPem(), Files.readString(certDir.resolve("tls.crt")));
        assertTrue(a.sameAs(new FsCertWriter(certDir, policy(Clock.systemUTC())).ensure("webhook.example.com")));
        Files.writeString(certDir.resolve("cert.pem"), "garbage");
        CertBundle repaired = writer.ensure("webhook.example.com");
        assertTrue(repaired.certPem().contains("BEGIN CERTIFICATE"));
    }

    @Test
    void externalReaderServesProvidedCertsAndNeverGenerates() {
        ExternalCertReader reader = new ExternalCertReader(client, NS, "external");
        CertificateException missing = assertThrows(CertificateException.class, () -> reader.ensure(DNS));
        assertTrue(missing.getMessage().contains("not found"), missing.getMessage());
        assertEquals(null, client.secrets().inNamespace(NS).withName("external").get(), "must never create the Secret");

        CertBundle provided = new CertIssuer().issueAll(DNS, Duration.ofDays(30), Duration.ofDays(30));
        client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("external").withNamespace(NS).endMetadata()
                .withData(Map.of("ca.crt", b64(provided.caCertPem()), "tls.crt", b64(provided.certPem()))).build()).create();
        CertificateException noKey = assertThrows(CertificateException.class, () -> reader.ensure(DNS));
        assertTrue(noKey.getMessage().contains("has no key tls.key"), noKey.getMessage());

        client.secrets().inNamespace(NS).withName("external").edit(s -> new SecretBuilder(s)
                .addToData("tls.key", b64(provided.keyPem())).build());
        CertBundle read = reader.ensure(DNS);
        assertEquals(provided.certPem(), read.certPem());
        assertEquals(false, reader.generates());
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(String s) {
        if (s == null) {
            return null;
        }
        return new String(Base64.getDecoder().decode(s), StandardCharsets.UTF_8);
    }
}
