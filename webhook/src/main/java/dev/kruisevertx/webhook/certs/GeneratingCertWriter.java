package dev.kruisevertx.webhook.certs;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Optional;

/**
 * The OpenKruise cycle shared by the Secret and filesystem writers: read what is stored; create it when
 * absent (if another replica won the race, read theirs); replace it when it is invalid or expires within
 * the renewal window, keeping the CA when it has enough life left so clients that trust it keep working.
 */
public abstract class GeneratingCertWriter implements CertWriter {
    private static final Logger LOG = LoggerFactory.getLogger(GeneratingCertWriter.class);

    /** What a store holds: {@code bundle} is null when it exists but is incomplete or unreadable. */
    protected record Stored(boolean exists, CertBundle bundle, String version) {
        static Stored absent() {
            return new Stored(false, null, null);
        }
    }

    /** Another writer changed the store first (create of an existing one, or a stale overwrite). */
    protected static final class ConflictException extends RuntimeException {
        public ConflictException(String message) {
            super(message);
        }
    }

    private final CertIssuer issuer;
    private final CertPolicy policy;

    protected GeneratingCertWriter(CertPolicy policy) {
        this.policy = policy;
        this.issuer = new CertIssuer(policy.clock());
    }

    protected abstract Stored read();

    /** @throws ConflictException when something already exists */
    protected abstract void create(CertBundle bundle);

    /** @throws ConflictException when the store changed since {@code version} was read */
    protected abstract void overwrite(CertBundle bundle, String version);

    /** Where the certificates live, for messages. */
    protected abstract String describe();

    @Override
    public CertBundle ensure(String dnsName) {
        if (dnsName == null || dnsName.isBlank()) {
            throw new CertificateException("the webhook DNS name must not be empty");
        }
        Stored stored = read();
        if (!stored.exists()) {
            CertBundle fresh = issuer.issueAll(dnsName, policy.caValidity(), policy.certValidity());
            try {
                create(fresh);
                LOG.info("Created webhook certificates in {} for {}", describe(), dnsName);
                return fresh;
            } catch (ConflictException e) {
                stored = read();
            }
        }
        Instant now = policy.clock().instant();
        Instant threshold = RenewBefore.threshold(now, policy.renewBefore());
        Optional<String> problem = CertValidator.problem(stored.bundle(), dnsName, now, threshold);
        if (problem.isEmpty()) {
            return stored.bundle();
        }
        Instant caNeededUntil = later(threshold, now.plus(policy.caMinRemaining()));
        CertBundle renewed = CertValidator.caReusable(stored.bundle(), caNeededUntil)
                ? issuer.issueServing(stored.bundle(), dnsName, policy.certValidity())
                : issuer.issueAll(dnsName, policy.caValidity(), policy.certValidity());
        try {
            overwrite(renewed, stored.version());
            LOG.info("Renewed webhook certificates in {} ({})", describe(), problem.get());
            return renewed;
        } catch (ConflictException e) {
            // Another replica renewed at the same moment: serve theirs if it is good.
            Stored theirs = read();
            Instant again = policy.clock().instant();
            Optional<String> still = CertValidator.problem(theirs.bundle(), dnsName, again,
                    RenewBefore.threshold(again, policy.renewBefore()));
            if (still.isEmpty()) {
                return theirs.bundle();
            }
            throw new CertificateException("certificates in " + describe() + " changed while renewing them and are "
                    + "still not usable: " + still.get());
        }
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
