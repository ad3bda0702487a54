package dev.kruisevertx.manager;

import dev.kruisevertx.cli.InvalidConfigurationException;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import dev.kruisevertx.webhook.certs.CertificateException;
import dev.kruisevertx.webhook.certs.Pem;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The certificate {@code /metrics} is served with under {@code --metrics-secure}: {@code tls.crt} and
 * {@code tls.key} of {@code --metrics-cert-dir}, or, as controller-runtime does without a certificate directory,
 * one made at start-up (a fresh CA and serving certificate, kept in memory only). Blocking: key generation and file
 * reads run on a worker.
 */
final class MetricsCertificates {
    /** The chart's Service for scraping; Prometheus scrapes by pod IP and skips verification of a generated one. */
    static final String DNS_NAME = "kruise-manager-metrics";
    private static final Duration VALIDITY = Duration.ofDays(365);

    private MetricsCertificates() {
    }

    static PemKeyCertOptions load(Path certDir) {
        if (certDir == null) {
            CertBundle bundle = new CertIssuer().issueAll(DNS_NAME, VALIDITY, VALIDITY);
            return new PemKeyCertOptions().setKeyValue(Buffer.buffer(bundle.keyPem()))
                    .setCertValue(Buffer.buffer(bundle.certPem() + bundle.caCertPem()));
        }
        String cert = read(certDir, "tls.crt");
        String key = read(certDir, "tls.key");
        try {
            Pem.readCertificate(cert, "tls.crt");
            Pem.readPrivateKey(key, "tls.key");
        } catch (CertificateException e) {
            throw new InvalidConfigurationException("--metrics-cert-dir " + certDir + ": " + e.getMessage(), e);
        }
        return new PemKeyCertOptions().setKeyValue(Buffer.buffer(key)).setCertValue(Buffer.buffer(cert));
    }

    private static String read(Path dir, String name) {
        try {
            return Files.readString(dir.resolve(name));
        } catch (IOException e) {
            throw new InvalidConfigurationException("--metrics-cert-dir " + dir + ": cannot read " + name + ": "
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage()), e);
        }
    }
}
