package dev.kruisevertx.webhook.configuration;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What every {@code caBundle} (webhook configuration entries, CRD conversion configs) must hold, and how a live one is
 * brought in line without rewriting it needlessly.
 * <ul>
 *   <li>{@code target}: the CA of the certificates this replica serves from now on; always present, first.</li>
 *   <li>{@code alsoTrust}: during a CA change, the CA of the certificate still being served, so kube-apiserver's new
 *       connections verify before and after the swap.</li>
 *   <li>{@code keepOthers}: whether other CAs already in a live bundle stay (while unexpired); true during the overlap
 *       window after a CA change, so replicas that have not swapped yet keep being trusted.</li>
 * </ul>
 * Certificates are compared by their DER bytes, never by text: a live bundle holding exactly the wanted certificates,
 * in any order or layout, is left as it is, so replicas that agree never overwrite each other. A plan only ever adds
 * its own {@code target} and {@code alsoTrust} and only ever removes what it does not keep, so two replicas reading
 * the same Secret converge on the same set. A bundle of several PEM certificates is what kube-apiserver expects
 * ({@code caBundle} is a PEM bundle); a plan without a previous CA writes the target CA alone, as OpenKruise does.
 */
public final class CaBundlePlan {
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN CERTIFICATE-----(.*?)-----END CERTIFICATE-----", Pattern.DOTALL);

    /** One PEM certificate: its DER bytes (as base64 without whitespace) identify it; {@code text} is written. */
    record Cert(String id, String text) {
    }

    private final String targetText;
    private final List<Cert> target;
    private final List<Cert> alsoTrust;
    private final boolean keepOthers;
    private final Instant now;

    private CaBundlePlan(byte[] target, byte[] alsoTrust, boolean keepOthers, Instant now) {
        String text = new String(target, StandardCharsets.UTF_8);
        this.targetText = text.endsWith("\n") ? text : text + "\n";
        this.target = certs(text);
        if (this.target.isEmpty()) {
            throw new IllegalArgumentException("the CA certificate holds no PEM certificate");
        }
        this.alsoTrust = alsoTrust == null ? List.of() : certs(new String(alsoTrust, StandardCharsets.UTF_8));
        this.keepOthers = keepOthers;
        this.now = now;
    }

    /** Exactly {@code ca}: anything else in a live bundle is dropped. */
    public static CaBundlePlan exactly(byte[] ca) {
        return new CaBundlePlan(ca, null, false, Instant.EPOCH);
    }

    /**
     * @param target     the CA (PEM, one or more certificates) of the certificates served from now on
     * @param alsoTrust  the CA of the certificate still served during a CA change, or null
     * @param keepOthers whether other CAs in a live bundle stay while they are unexpired at {@code now}
     */
    public static CaBundlePlan of(byte[] target, byte[] alsoTrust, boolean keepOthers, Instant now) {
        return new CaBundlePlan(target, alsoTrust, keepOthers, now);
    }

    /** The plan without {@code alsoTrust}: what is wanted once the new certificate is served. */
    public CaBundlePlan afterSwap() {
        return new CaBundlePlan(targetText.getBytes(StandardCharsets.UTF_8), null, keepOthers, now);
    }

    /** The target CA's PEM text, as written when nothing else is kept. */
    public byte[] targetBytes() {
        return targetText.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The caBundle (base64) to have in place of {@code liveBase64} (which may be null, empty or garbage): {@code liveBase64}
     * itself when it already holds exactly the wanted certificates.
     */
    public String desired(String liveBase64) {
        List<Cert> live = certs(decode(liveBase64));
        Set<String> wanted = new LinkedHashSet<>();
        target.forEach(c -> wanted.add(c.id()));
        StringBuilder text = new StringBuilder(targetText);
        for (Cert c : alsoTrust) {
            if (wanted.add(c.id())) {
                text.append(c.text());
            }
        }
        if (keepOthers) {
            for (Cert c : live) {
                if (!wanted.contains(c.id()) && unexpired(c)) {
                    wanted.add(c.id());
                    text.append(c.text());
                }
            }
        }
        Set<String> liveIds = new LinkedHashSet<>();
        live.forEach(c -> liveIds.add(c.id()));
        if (liveBase64 != null && liveIds.equals(wanted)) {
            return liveBase64;
        }
        return Base64.getEncoder().encodeToString(text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Whether {@code liveBase64} holds every certificate of the target CA (it may hold others too). */
    public boolean trustsTarget(String liveBase64) {
        Set<String> liveIds = new LinkedHashSet<>();
        certs(decode(liveBase64)).forEach(c -> liveIds.add(c.id()));
        return target.stream().allMatch(c -> liveIds.contains(c.id()));
    }

    /** The PEM certificates of {@code pem}, each once, in order; text outside them is ignored (as Go's PEM reader does). */
    static List<Cert> certs(String pem) {
        List<Cert> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        Matcher m = BLOCK.matcher(pem);
        while (m.find()) {
            String id = m.group(1).replaceAll("\\s", "");
            if (!id.isEmpty() && seen.add(id)) {
                out.add(new Cert(id, m.group() + "\n"));
            }
        }
        return out;
    }

    private boolean unexpired(Cert c) {
        try {
            byte[] der = Base64.getDecoder().decode(c.id());
            X509Certificate x = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
            return x.getNotAfter().toInstant().isAfter(now);
        } catch (IllegalArgumentException | CertificateException | ClassCastException e) {
            // Not a certificate kube-apiserver could use either: dropping it loses nothing.
            return false;
        }
    }

    private static String decode(String base64) {
        if (base64 == null || base64.isEmpty()) {
            return "";
        }
        try {
            return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
}
