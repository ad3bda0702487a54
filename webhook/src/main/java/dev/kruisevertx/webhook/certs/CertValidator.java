package dev.kruisevertx.webhook.certs;

import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Decides whether stored certificates can still be served: keys match, the serving certificate is signed by
 * the CA, names the DNS name, and both stay valid past a threshold (now plus CERTS_RENEW_BEFORE).
 */
public final class CertValidator {
    private CertValidator() {
    }

    /** Why the bundle must be replaced, or empty when it is fine until {@code threshold}. */
    public static Optional<String> problem(CertBundle bundle, String dnsName, Instant now, Instant threshold) {
        if (bundle == null) {
            return Optional.of("no certificates");
        }
        try {
            X509Certificate ca = bundle.caCertificate();
            X509Certificate cert = bundle.servingCertificate();
            PrivateKey key = bundle.servingKey();
            if (!keyMatches(key, cert.getPublicKey())) {
                return Optional.of("the serving key does not belong to the serving certificate");
            }
            try {
                cert.verify(ca.getPublicKey());
            } catch (Exception e) {
                return Optional.of("the serving certificate is not signed by the CA");
            }
            if (cert.getNotBefore().toInstant().isAfter(now)) {
                return Optional.of("the serving certificate is not valid yet");
            }
            if (!cert.getNotAfter().toInstant().isAfter(threshold)) {
                return Optional.of("the serving certificate expires at " + cert.getNotAfter().toInstant()
                        + ", within the renewal window");
            }
            if (!ca.getNotAfter().toInstant().isAfter(threshold)) {
                return Optional.of("the CA certificate expires at " + ca.getNotAfter().toInstant()
                        + ", within the renewal window");
            }
            if (!dnsNames(cert).contains(dnsName)) {
                return Optional.of("the serving certificate is not issued for " + dnsName);
            }
            return Optional.empty();
        } catch (CertificateException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Whether the CA (key and certificate) may sign a new serving certificate: it stays valid past {@code until}. */
    public static boolean caReusable(CertBundle bundle, Instant until) {
        if (bundle == null || bundle.caKeyPem() == null || bundle.caKeyPem().isBlank()) {
            return false;
        }
        try {
            X509Certificate ca = bundle.caCertificate();
            return ca.getNotAfter().toInstant().isAfter(until) && keyMatches(bundle.caKey(), ca.getPublicKey());
        } catch (CertificateException e) {
            return false;
        }
    }

    static boolean keyMatches(PrivateKey key, PublicKey publicKey) {
        try {
            byte[] probe = "kruise-webhook-key-check".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            Signature signer = Signature.getInstance("SHA256withRSA");
            signer.initSign(key);
            signer.update(probe);
            byte[] sig = signer.sign();
            Signature verifier = Signature.getInstance("SHA256withRSA");
            verifier.initVerify(publicKey);
            verifier.update(probe);
            return verifier.verify(sig);
        } catch (Exception e) {
            return false;
        }
    }

    static List<String> dnsNames(X509Certificate cert) {
        try {
            Collection<List<?>> sans = cert.getSubjectAlternativeNames();
            if (sans == null) {
                return List.of();
            }
            return sans.stream().filter(s -> Integer.valueOf(2).equals(s.get(0))).map(s -> (String) s.get(1)).toList();
        } catch (CertificateParsingException e) {
            return List.of();
        }
    }
}
