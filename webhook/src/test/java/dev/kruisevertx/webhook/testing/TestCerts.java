package dev.kruisevertx.webhook.testing;

import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;

import java.time.Duration;

/** Certificates for tests; RSA key generation is slow, so the common ones are made once. */
public final class TestCerts {
    private static CertBundle shared;

    private TestCerts() {
    }

    public static synchronized CertBundle localhost() {
        if (shared == null) {
            shared = new CertIssuer().issueAll("kruise-webhook-service.kruise-system.svc", Duration.ofDays(30), Duration.ofDays(30));
        }
        return shared;
    }

    public static CertBundle renewed(CertBundle ca) {
        return new CertIssuer().issueServing(ca, "kruise-webhook-service.kruise-system.svc", Duration.ofDays(30));
    }
}
