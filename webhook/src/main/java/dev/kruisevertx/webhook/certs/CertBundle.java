package dev.kruisevertx.webhook.certs;

import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;

/**
 * The PEM texts a webhook needs: the CA key and certificate (the CA key is absent for external certificates)
 * and the serving key and certificate.
 */
public record CertBundle(String caKeyPem, String caCertPem, String keyPem, String certPem) {

    public CertBundle {
        Objects.requireNonNull(caCertPem, "caCertPem");
        Objects.requireNonNull(keyPem, "keyPem");
        Objects.requireNonNull(certPem, "certPem");
    }

    /** The bytes written as {@code caBundle} into webhook configurations and CRDs. */
    public byte[] caBundle() {
        return caCertPem.getBytes(StandardCharsets.UTF_8);
    }

    public X509Certificate caCertificate() {
        return Pem.readCertificate(caCertPem, "CA certificate");
    }

    public X509Certificate servingCertificate() {
        return Pem.readCertificate(certPem, "serving certificate");
    }

    public PrivateKey servingKey() {
        return Pem.readPrivateKey(keyPem, "serving key");
    }

    public PrivateKey caKey() {
        if (caKeyPem == null || caKeyPem.isBlank()) {
            throw new CertificateException("the CA key is not available");
        }
        return Pem.readPrivateKey(caKeyPem, "CA key");
    }

    /** Same certificates, whatever the object identity. */
    public boolean sameAs(CertBundle other) {
        return other != null && Objects.equals(caKeyPem, other.caKeyPem) && caCertPem.equals(other.caCertPem)
                && keyPem.equals(other.keyPem) && certPem.equals(other.certPem);
    }

    @Override
    public String toString() {
        return "CertBundle[keys hidden]";
    }
}
