package dev.kruisevertx.webhook.admission;

/**
 * The request body is not an AdmissionReview this webhook can judge; the message says why. When the body had a
 * supported apiVersion and a uid ({@link #answerable()}), the answer is a review denying it with that message.
 */
public final class BadAdmissionReview extends RuntimeException {
    private final String apiVersion;
    private final String uid;

    public BadAdmissionReview(String message) {
        this(message, null, null);
    }

    public BadAdmissionReview(String message, String apiVersion, String uid) {
        super(message, null, false, false);
        this.apiVersion = apiVersion;
        this.uid = uid;
    }

    public String apiVersion() {
        return apiVersion;
    }

    public String uid() {
        return uid;
    }

    public boolean answerable() {
        return uid != null && apiVersion != null;
    }
}
