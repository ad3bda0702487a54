package dev.kruisevertx.webhook.certs;

/** A certificate could not be read, generated, stored or verified; the message says which and why. */
public class CertificateException extends RuntimeException {
    public CertificateException(String message) {
        super(message);
    }

    public CertificateException(String message, Throwable cause) {
        super(message, cause);
    }
}
