package dev.kruisevertx.webhook.server;

import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.testing.RawTlsClient;
import dev.kruisevertx.webhook.testing.TestCerts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The webhook offers TLS 1.3 and, for TLS 1.2, forward-secret AEAD suites only. Each refused suite is first shown to
 * work against a server with Vert.x's defaults, so a refusal is the policy's doing and not the JDK client's.
 */
class TlsPolicyTest {
    static final String[] TLS12 = {"TLSv1.2"};
    /** Static-RSA key exchange (no forward secrecy), CBC with SHA-1 and with SHA-256 MACs. */
    static final List<String> REFUSED = List.of(
            "TLS_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_RSA_WITH_AES_128_CBC_SHA",
            "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
            "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
            "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256");

    final Vertx vertx = Vertx.vertx();
    final CertBundle certs = TestCerts.localhost();
    WebhookServerVerticle server;

    @BeforeEach
    void setUp() throws Exception {
        server = new WebhookServerVerticle("localhost", 0, ServerLimits.defaults(), new AdmissionRegistry(),
                new ConversionRegistry(), new WebhookMetrics(new SimpleMeterRegistry()), certs);
        vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void tearDown() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void tls13IsOffered() throws Exception {
        try (RawTlsClient c = RawTlsClient.connect(certs, server.actualPort(), new String[]{"TLSv1.3"}, null)) {
            assertEquals("TLSv1.3", c.protocol());
            assertHealthy(c);
        }
    }

    @Test
    void tls12WithForwardSecretAeadSuitesIsOffered() throws Exception {
        for (String suite : List.of("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
                "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256")) {
            try (RawTlsClient c = RawTlsClient.connect(certs, server.actualPort(), TLS12, new String[]{suite})) {
                assertEquals("TLSv1.2", c.protocol());
                assertEquals(suite, c.cipherSuite());
                assertHealthy(c);
            }
        }
    }

    @Test
    void staticRsaAndCbcSuitesAreRefused() throws Exception {
        int permissive = permissiveServer();
        for (String suite : REFUSED) {
            try (RawTlsClient control = RawTlsClient.connect(certs, permissive, TLS12, new String[]{suite})) {
                assertEquals(suite, control.cipherSuite(), "the JDK client offers " + suite);
            }
            assertThrows(SSLException.class, () -> RawTlsClient.connect(certs, server.actualPort(), TLS12,
                    new String[]{suite}).close(), suite + " must be refused");
        }
    }

    @Test
    void theRefusalSurvivesACertificateRotation() throws Exception {
        CertBundle renewed = TestCerts.renewed(certs);
        assertTrue(server.updateCertificates(renewed).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));
        try (RawTlsClient c = RawTlsClient.connect(certs, server.actualPort(), TLS12,
                new String[]{"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"})) {
            assertHealthy(c);
        }
        for (String suite : REFUSED) {
            assertThrows(SSLException.class, () -> RawTlsClient.connect(certs, server.actualPort(), TLS12,
                    new String[]{suite}).close(), suite + " must stay refused after a rotation");
        }
    }

    private static void assertHealthy(RawTlsClient c) throws Exception {
        c.send(RawTlsClient.get(WebhookServerVerticle.HEALTHZ));
        RawTlsClient.Response r = c.readResponse();
        assertEquals(200, r.status());
        assertEquals("ok", r.body());
    }

    /** An HTTPS server on Vert.x's default TLS settings and the same certificate. */
    private int permissiveServer() throws Exception {
        HttpServer permissive = vertx.createHttpServer(new HttpServerOptions().setSsl(true).setHost("localhost").setPort(0)
                .setKeyCertOptions(new PemKeyCertOptions().setCertValue(Buffer.buffer(certs.certPem()))
                        .setKeyValue(Buffer.buffer(certs.keyPem()))));
        permissive.requestHandler(req -> req.response().end("ok"));
        return permissive.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).actualPort();
    }
}
