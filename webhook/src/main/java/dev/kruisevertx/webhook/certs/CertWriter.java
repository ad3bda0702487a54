package dev.kruisevertx.webhook.certs;

/**
 * Provides the certificates the webhook serves with. Implementations block (API calls, file IO, key
 * generation): call them from a worker thread.
 */
public interface CertWriter {
    /**
     * Returns certificates valid for {@code dnsName}, creating or renewing them where the writer maintains
     * them itself.
     *
     * @throws CertificateException with a message that says what is wrong
     */
    CertBundle ensure(String dnsName);

    /** Whether this writer generates certificates (false for externally provided ones). */
    default boolean generates() {
        return true;
    }
}
