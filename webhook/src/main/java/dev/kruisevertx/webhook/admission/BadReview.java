package dev.kruisevertx.webhook.admission;

/**
 * The request body is not a review (AdmissionReview or ConversionReview) this webhook can judge; the message says
 * why. When the body had a supported apiVersion and a uid ({@link #answerable()}), the answer is a review in that
 * apiVersion echoing that uid: a denied admission or a failed conversion with this message, which kube-apiserver
 * shows its user. Otherwise it is a plain 400.
 */
public final class BadReview extends RuntimeException {
    private final String apiVersion;
    private final String uid;

    /** A body that cannot be answered as a review. */
    public BadReview(String message) {
        this(message, null, null);
    }

    public BadReview(String message, String apiVersion, String uid) {
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

    /** Whether the answer can be a review (a supported apiVersion and a uid to echo). */
    public boolean answerable() {
        return uid != null && apiVersion != null;
    }
}
