package dev.kruisevertx.webhook.admission;

/** The request body is not an AdmissionReview this webhook can answer; the message says why. */
public final class BadAdmissionReview extends RuntimeException {
    public BadAdmissionReview(String message) {
        super(message);
    }
}
