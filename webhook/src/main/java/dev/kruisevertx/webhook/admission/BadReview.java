package dev.kruisevertx.webhook.admission;

/**
 * The request body is not a review (AdmissionReview or ConversionReview) this webhook can judge; the message says
 * why. When the body had a supported apiVersion and a uid ({@link #answerable()}), the answer is a review in that
 * apiVersion echoing that uid: a denied admission or a failed conversion with this message, which kube-apiserver
 * shows its user. Otherwise it is a plain 400.
 */
public final class BadReview extends RuntimeException {
    /** The envelope the answer goes back in; null when the body cannot be answered as a review. */
    private final ReviewEnvelope answerIn;

    /** A body that cannot be answered as a review. */
    public BadReview(String message) {
        this(message, null);
    }

    BadReview(String message, ReviewEnvelope answerIn) {
        super(message, null, false, false);
        this.answerIn = answerIn;
    }

    /** Whether the answer can be a review (a supported apiVersion and a uid to echo). */
    public boolean answerable() {
        return answerIn != null;
    }

    /** The apiVersion the answering review repeats; null when not {@link #answerable()}. */
    public String apiVersion() {
        return answerable() ? answerIn.apiVersion() : null;
    }

    /** The uid the answering review echoes; null when not {@link #answerable()}. */
    public String uid() {
        return answerable() ? answerIn.uid() : null;
    }
}
