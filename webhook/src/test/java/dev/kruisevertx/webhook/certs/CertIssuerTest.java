package dev.kruisevertx.webhook.certs;

import org.junit.jupiter.api.Test;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.Period;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CertIssuerTest {
    private final CertIssuer issuer = new CertIssuer();

    @Test
    void issuesCaAndServingCertificateForTheDnsNameAndLocalhost() throws Exception {
        CertBundle b = issuer.issueAll("kruise-webhook-service.kruise-system.svc", Duration.ofDays(3650), Duration.ofDays(3650));
        X509Certificate ca = b.caCertificate();
        X509Certificate cert = b.servingCertificate();
        assertEquals("CN=webhook-cert-ca", ca.getSubjectX500Principal().getName());
        assertEquals(2048, ((java.security.interfaces.RSAPublicKey) ca.getPublicKey()).getModulus().bitLength());
        assertTrue(ca.getBasicConstraints() >= 0, "CA must be a CA");
        cert.verify(ca.getPublicKey());
        assertTrue(CertValidator.dnsNames(cert).contains("kruise-webhook-service.kruise-system.svc"));
        assertTrue(CertValidator.dnsNames(cert).contains("localhost"));
        assertTrue(b.keyPem().contains("PRIVATE KEY"));
        Instant now = Instant.now();
        assertTrue(CertValidator.problem(b, "kruise-webhook-service.kruise-system.svc", now,
                RenewBefore.threshold(now, Period.ofMonths(6))).isEmpty());
    }

    @Test
    void validatorExplainsWhatIsWrong() {
        CertBundle b = issuer.issueAll("a.svc", Duration.ofDays(30), Duration.ofDays(30));
        Instant now = Instant.now();
        String expiring = CertValidator.problem(b, "a.svc", now, RenewBefore.threshold(now, Period.ofMonths(6))).orElseThrow();
        assertTrue(expiring.contains("renewal window"), expiring);
        String wrongName = CertValidator.problem(b, "b.svc", now, now).orElseThrow();
        assertTrue(wrongName.contains("not issued for b.svc"), wrongName);
        CertBundle other = issuer.issueAll("a.svc", Duration.ofDays(30), Duration.ofDays(30));
        CertBundle mismatched = new CertBundle(b.caKeyPem(), b.caCertPem(), other.keyPem(), b.certPem());
        assertTrue(CertValidator.problem(mismatched, "a.svc", now, now).orElseThrow().contains("serving key does not belong"));
        CertBundle foreignCa = new CertBundle(other.caKeyPem(), other.caCertPem(), b.keyPem(), b.certPem());
        assertTrue(CertValidator.problem(foreignCa, "a.svc", now, now).orElseThrow().contains("not signed by the CA"));
        CertBundle garbage = new CertBundle(b.caKeyPem(), "not pem", b.keyPem(), b.certPem());
        assertTrue(CertValidator.problem(garbage, "a.svc", now, now).orElseThrow().contains("CA certificate"));
    }

    @Test
    void servingReissueKeepsTheCa() {
        CertBundle b = issuer.issueAll("a.svc", Duration.ofDays(3650), Duration.ofDays(1));
        CertBundle again = issuer.issueServing(b, "a.svc", Duration.ofDays(1));
        assertEquals(b.caCertPem(), again.caCertPem());
        assertFalse(b.certPem().equals(again.certPem()));
        assertTrue(CertValidator.caReusable(b, Instant.now().plus(Duration.ofDays(365))));
    }

    @Test
    void emptyDnsNameIsRejected() {
        CertificateException e = assertThrows(CertificateException.class,
                () -> issuer.issueAll(" ", Duration.ofDays(1), Duration.ofDays(1)));
        assertTrue(e.getMessage().contains("DNS name"));
    }

    @Test
    void renewBeforeParsesDaysMonthsYearsAndRejectsGarbage() {
        assertEquals(Period.ofDays(30), RenewBefore.parse("30d"));
        assertEquals(Period.ofMonths(6), RenewBefore.parse("6m"));
        assertEquals(Period.ofYears(1), RenewBefore.parse("1y"));
        for (String bad : new String[]{"", "6", "m", "6w", "-1d", "0d", "1.5y", "6 months"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RenewBefore.parse(bad), bad);
            assertTrue(e.getMessage().contains("CERTS_RENEW_BEFORE"), e.getMessage());
        }
    }
}
