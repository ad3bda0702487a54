package dev.kruisevertx.manager;

import dev.kruisevertx.cli.InvalidConfigurationException;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import io.vertx.core.net.PemKeyCertOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MetricsCertificatesTest {
    @TempDir
    Path dir;

    @Test
    void aCertDirIsServedAsGiven() throws Exception {
        CertBundle bundle = new CertIssuer().issueAll("metrics.example", Duration.ofDays(1), Duration.ofDays(1));
        Files.writeString(dir.resolve("tls.crt"), bundle.certPem());
        Files.writeString(dir.resolve("tls.key"), bundle.keyPem());
        PemKeyCertOptions options = MetricsCertificates.load(dir);
        assertEquals(bundle.certPem(), options.getCertValue().toString());
        assertEquals(bundle.keyPem(), options.getKeyValue().toString());
    }

    @Test
    void withoutACertDirOneIsMade() {
        PemKeyCertOptions options = MetricsCertificates.load(null);
        assertTrue(options.getCertValue().toString().contains("BEGIN CERTIFICATE"));
        assertTrue(options.getKeyValue().toString().contains("PRIVATE KEY"));
    }

    @Test
    void aFileThatIsNotPemNamesTheFlag() throws Exception {
        Files.writeString(dir.resolve("tls.crt"), "not a certificate");
        Files.writeString(dir.resolve("tls.key"), "not a key");
        String message = assertThrows(InvalidConfigurationException.class, () -> MetricsCertificates.load(dir)).getMessage();
        assertTrue(message.startsWith("--metrics-cert-dir " + dir + ": tls.crt"), message);
    }
}
