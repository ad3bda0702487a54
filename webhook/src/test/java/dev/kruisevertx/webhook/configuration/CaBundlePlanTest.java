package dev.kruisevertx.webhook.configuration;

import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The caBundle rules of a CA change: merge, contains, drop, and two replicas converging on one bundle. */
class CaBundlePlanTest {
    static final String DNS = "kruise-webhook-service.kruise-system.svc";
    static CertBundle oldCa;
    static CertBundle newCa;
    static CertBundle expiredCa;
    static final Instant NOW = Instant.now();

    @BeforeAll
    static void certificates() {
        oldCa = new CertIssuer().issueAll(DNS, Duration.ofDays(30), Duration.ofDays(30));
        newCa = new CertIssuer().issueAll(DNS, Duration.ofDays(30), Duration.ofDays(30));
        // Issued 40 days ago for 10 days: expired a month ago.
        Clock past = Clock.fixed(NOW.minus(Duration.ofDays(40)), ZoneOffset.UTC);
        expiredCa = new CertIssuer(past).issueAll(DNS, Duration.ofDays(10), Duration.ofDays(10));
    }

    static String b64(String... pems) {
        return Base64.getEncoder().encodeToString(String.join("", pems).getBytes(StandardCharsets.UTF_8));
    }

    /** The certificates of a base64 caBundle, as kube-apiserver (Go's PEM reader) would load them. */
    static List<X509Certificate> loaded(String base64) throws Exception {
        Collection<? extends java.security.cert.Certificate> certs = CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(Base64.getDecoder().decode(base64)));
        List<X509Certificate> out = new ArrayList<>();
        certs.forEach(c -> out.add((X509Certificate) c));
        return out;
    }

    static CaBundlePlan plan(CertBundle target, CertBundle alsoTrust, boolean keepOthers) {
        return CaBundlePlan.of(target.caBundle(), alsoTrust == null ? null : alsoTrust.caBundle(), keepOthers, NOW);
    }

    @Test
    void withoutAPreviousCaTheTargetIsWrittenAloneAsOpenKruiseDoes() {
        assertEquals(b64(newCa.caCertPem()), plan(newCa, null, false).desired(null));
        assertEquals(b64(newCa.caCertPem()), plan(newCa, null, true).desired(""));
        assertEquals(b64(newCa.caCertPem()), CaBundlePlan.exactly(newCa.caBundle()).desired(b64(oldCa.caCertPem())),
                "exactly() replaces whatever was there");
    }

    @Test
    void duringACaChangeTheBundleHoldsTheNewCaFirstAndTheServedOne() throws Exception {
        String merged = plan(newCa, oldCa, false).desired(b64(oldCa.caCertPem()));
        assertEquals(List.of(newCa.caCertificate(), oldCa.caCertificate()), loaded(merged));
        // Both serving certificates verify against the merged bundle: the one served before and after the swap.
        assertTrue(plan(newCa, null, false).trustsTarget(merged));
        assertTrue(plan(oldCa, null, false).trustsTarget(merged));
    }

    @Test
    void aBundleThatAlreadyHoldsTheWantedCertificatesIsLeftAsItIsWhateverItsOrderAndLayout() {
        String reordered = b64(oldCa.caCertPem(), "\n\n# comment kube-apiserver ignores\n", newCa.caCertPem());
        assertSame(reordered, plan(newCa, oldCa, false).desired(reordered));
        assertSame(reordered, plan(newCa, null, true).desired(reordered), "inside the window the old CA is kept");
        String crlf = b64(newCa.caCertPem().replace("\n", "\r\n"));
        assertSame(crlf, plan(newCa, null, false).desired(crlf), "same certificate, other line endings");
    }

    @Test
    void containsAcceptsABundleWithTheTargetAmongOthers() {
        CaBundlePlan p = plan(newCa, null, false);
        assertTrue(p.trustsTarget(b64(oldCa.caCertPem(), newCa.caCertPem())));
        assertTrue(p.trustsTarget(b64(newCa.caCertPem())));
        assertFalse(p.trustsTarget(b64(oldCa.caCertPem())));
        assertFalse(p.trustsTarget(""));
        assertFalse(p.trustsTarget(null));
        assertFalse(p.trustsTarget("%%% not base64"));
    }

    @Test
    void outsideTheWindowOtherCasAreDroppedInsideOnlyExpiredOnes() throws Exception {
        String live = b64(newCa.caCertPem(), oldCa.caCertPem(), expiredCa.caCertPem());
        assertEquals(List.of(newCa.caCertificate(), oldCa.caCertificate()), loaded(plan(newCa, null, true).desired(live)),
                "the expired CA goes at once, the old one stays during the window");
        assertEquals(b64(newCa.caCertPem()), plan(newCa, null, false).desired(live), "after the window only the target");
    }

    @Test
    void garbageInALiveBundleIsDroppedAndNeverBreaksThePlan() throws Exception {
        String junk = b64("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n",
                newCa.caCertPem());
        assertEquals(List.of(newCa.caCertificate()), loaded(plan(newCa, null, true).desired(junk)));
        assertEquals(b64(newCa.caCertPem()), plan(newCa, null, true).desired("%%% not base64"));
        assertThrows(IllegalArgumentException.class, () -> CaBundlePlan.exactly("no pem here".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aTargetOfSeveralCertificatesIsKeptWholeAndDuplicatesAreWrittenOnce() throws Exception {
        byte[] chain = (newCa.caCertPem() + oldCa.caCertPem()).getBytes(StandardCharsets.UTF_8);
        CaBundlePlan p = CaBundlePlan.of(chain, oldCa.caBundle(), false, NOW);
        assertEquals(List.of(newCa.caCertificate(), oldCa.caCertificate()), loaded(p.desired(null)));
    }

    /** Applies each replica's plan in turn to one shared caBundle until nobody writes; returns the writes made. */
    static int converge(String[] live, CaBundlePlan... replicas) {
        int writes = 0;
        for (int round = 0; round < 10; round++) {
            boolean wrote = false;
            for (CaBundlePlan r : replicas) {
                String next = r.desired(live[0]);
                if (!next.equals(live[0])) {
                    live[0] = next;
                    writes++;
                    wrote = true;
                }
            }
            if (!wrote) {
                return writes;
            }
        }
        throw new AssertionError("replicas keep overwriting each other: " + live[0]);
    }

    @Test
    void twoReplicasWithTheSameSecretConvergeOnOneBundle() throws Exception {
        // Both see the new CA in the Secret while serving the old one: they write the same bytes.
        assertEquals(plan(newCa, oldCa, false).desired(b64(oldCa.caCertPem())),
                plan(newCa, oldCa, true).desired(b64(oldCa.caCertPem())));
        String[] live = {b64(oldCa.caCertPem())};
        assertEquals(1, converge(live, plan(newCa, oldCa, false), plan(newCa, oldCa, true)), "one write, not a war");
        assertEquals(List.of(newCa.caCertificate(), oldCa.caCertificate()), loaded(live[0]));

        // Both swapped; one is still inside its overlap window, the other past it: the old CA goes and stays gone.
        int writes = converge(live, plan(newCa, null, true), plan(newCa, null, false));
        assertEquals(1, writes);
        assertEquals(List.of(newCa.caCertificate()), loaded(live[0]));
        assertEquals(0, converge(live, plan(newCa, null, true), plan(newCa, null, false), plan(newCa, null, true)));

        // Same windows in the other order: the same result.
        String[] again = {b64(newCa.caCertPem(), oldCa.caCertPem())};
        converge(again, plan(newCa, null, false), plan(newCa, null, true));
        assertEquals(live[0], again[0]);
    }

    @Test
    void aReplicaNeverReAddsACaItDoesNotServe() {
        String onlyNew = b64(newCa.caCertPem());
        assertSame(onlyNew, plan(newCa, null, true).desired(onlyNew));
        assertNotEquals(onlyNew, plan(newCa, oldCa, true).desired(onlyNew), "only the CA still served is added back");
    }
}
