package dev.kruisevertx.controller;

import dev.kruisevertx.kube.KubeExecutor;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Sorts the failures of a reconcile into the {@link Kind kinds} the controller runtime treats alike, once for every
 * controller: an optimistic-concurrency conflict or an object that already exists (409, or a guarded patch whose
 * resourceVersion test failed), an object deleted meanwhile (404, 410), a write refused because this manager no longer
 * leads, a server that is overloaded or unreachable (429, 5xx, timeouts, connections refused, reset or closed before the
 * answer), a write an admission webhook denied (a policy said no: the object and the webhook's message say it all), and
 * anything else (a bug or a refusal that needs a person). Only the last keeps its stack trace in the log.
 */
public final class ExpectedFailures {
    /** What the runtime does with a failed reconcile. */
    public enum Kind {
        /** Someone else wrote first: requeue promptly, one line. */
        CONFLICT,
        /** The object is gone: nothing is left to do, the reconcile counts as a success. */
        GONE,
        /** This manager lost its lease: drop the key; the next leader (or this one again) replays the cache. */
        NOT_LEADER,
        /** Throttled (429), a server error (5xx) or a timeout: back off, one line. */
        TRANSIENT,
        /**
         * An admission webhook denied the write (a policy, a PodUnavailableBudget): back off, one warning line naming
         * the object and the webhook's message; the policy or the object must change, which a stack trace cannot show.
         */
        ADMISSION_DENIED,
        /** Anything else: back off and log a warning with the stack trace. */
        UNEXPECTED
    }

    /** A classified failure and its one-line reason (never null). */
    public record Classified(Kind kind, String reason) {
    }

    /** Bounds the API server's message in a log line (it names the object; long ones are cut). */
    static final int MAX_MESSAGE = 200;
    /** Bounds the walk down the cause chain (wrappers such as CompletionException add a level each). */
    private static final int MAX_DEPTH = 8;
    private static final java.util.regex.Pattern ADMISSION_DENIAL =
            java.util.regex.Pattern.compile("^admission webhook \"[^\"]+\" denied the request");
    /** fabric8's "Failure executing: POST at: https://host/api/v1/namespaces/NS/PLURAL[/NAME]. Message: ...". */
    private static final java.util.regex.Pattern REQUEST_URL = java.util.regex.Pattern.compile(
            " at: \\S*?/namespaces/([^/\\s]+)/([a-z0-9-]+)(?:/([^/\\s?]+?))?(?:/[a-z]+)?\\.?(?:\\?\\S*)?\\s");
    private static final java.util.regex.Pattern PATCH_TEST_FAILED =
            java.util.regex.Pattern.compile("testing value \\S+ failed|Expected value .* but found");

    private ExpectedFailures() {
    }

    /**
     * A short reason (e.g. {@code "conflict (409): Operation cannot be fulfilled on pods \"a\": ..."}) for the
     * failures of normal operation (conflict, gone, not the leader), or null for the others.
     */
    public static String reason(Throwable failure) {
        Classified c = classify(failure);
        return c.kind() == Kind.CONFLICT || c.kind() == Kind.GONE || c.kind() == Kind.NOT_LEADER ? c.reason() : null;
    }

    /** The kind of a failure and a one-line reason for the log. */
    public static Classified classify(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = t.getCause()) {
            if (t instanceof KubeExecutor.ShardNotHeldException) {
                return new Classified(Kind.NOT_LEADER, t.getMessage());
            }
            if (t instanceof KubeExecutor.NotLeaderException) {
                return new Classified(Kind.NOT_LEADER, "write refused: this manager is not the leader");
            }
            if (t instanceof KubernetesClientException k && k.getCode() > 0) {
                return classifyApiError(k);
            }
            if (t instanceof java.io.InterruptedIOException || t instanceof java.util.concurrent.TimeoutException
                    || t instanceof java.net.ConnectException) {
                return new Classified(Kind.TRANSIENT, "API server unreachable or slow: " + oneLine(t.toString()));
            }
            // A connection closed or reset before the answer (fabric8: "HTTP/1.1 header parser received no bytes",
            // an EOF): the request may be retried like a timeout. Reconciles do no other IO; a JSON error (also an
            // IOException to Jackson) is a bug.
            if (t instanceof java.io.IOException && !(t instanceof com.fasterxml.jackson.core.JacksonException)) {
                return new Classified(Kind.TRANSIENT, "API server connection lost: " + oneLine(t.toString()));
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return new Classified(Kind.UNEXPECTED, failure == null ? "unknown failure" : oneLine(String.valueOf(failure.getMessage())));
    }

    private static Classified classifyApiError(KubernetesClientException k) {
        int code = k.getCode();
        Kind kind;
        String what;
        if (code == 409) {
            kind = Kind.CONFLICT;
            what = "conflict (409)";
        } else if (code == 422 && failedPatchTest(k)) {
            kind = Kind.CONFLICT;
            what = "stale write (422: a guarded patch's test failed)";
        } else if (code == 404 || code == 410) {
            kind = Kind.GONE;
            what = code == 404 ? "not found (404)" : "gone (410)";
        } else if (code == 429 || code == 408 || code >= 500) {
            kind = Kind.TRANSIENT;
            what = code == 429 ? "throttled (429)" : code == 408 ? "timeout (408)" : "server error (" + code + ")";
        } else if (code >= 400 && code < 500 && admissionDenial(k) != null) {
            return new Classified(Kind.ADMISSION_DENIED, "write of " + objectOf(k) + " denied (" + code + "): "
                    + oneLine(admissionDenial(k)));
        } else {
            // Other 4xx (invalid, forbidden, ...) need a person: not part of normal operation.
            return new Classified(Kind.UNEXPECTED, "API error (" + code + ")" + statusMessage(k));
        }
        return new Classified(kind, what + statusMessage(k));
    }

    /**
     * A JSON patch whose {@code test} operation failed: controllers guard patches with a test of the resourceVersion
     * they read, so this is the same race as a 409 (kube-apiserver answers it with 422 and the json-patch library's
     * "testing value ... failed"; the embedded API server with zjsonpatch's "Expected value ... but found ...").
     */
    private static boolean failedPatchTest(KubernetesClientException e) {
        String message = e.getStatus() == null ? null : e.getStatus().getMessage();
        if (message == null) {
            message = e.getMessage();
        }
        return message != null && PATCH_TEST_FAILED.matcher(message).find();
    }

    /**
     * kube-apiserver words every webhook denial {@code admission webhook "NAME" denied the request[: MESSAGE]}, with
     * the status code the webhook chose (400 when it chose none below 400); null when the message is not one.
     */
    private static String admissionDenial(KubernetesClientException e) {
        String message = e.getStatus() == null ? null : e.getStatus().getMessage();
        return message != null && ADMISSION_DENIAL.matcher(message).find() ? message : null;
    }

    /**
     * "pods ns/web-x" (or "pods in ns" for a create, whose name is in the body): from the request fabric8 sent, as the
     * exception (or one it wraps) records it, else from the URL its message quotes.
     */
    private static String objectOf(KubernetesClientException failure) {
        KubernetesClientException e = failure;
        for (Throwable t = failure; t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof KubernetesClientException k && k.getResourcePlural() != null) {
                e = k;
                break;
            }
        }
        String plural = e.getResourcePlural();
        String name = e.getName();
        String ns = e.getNamespace();
        if (plural == null && failure.getMessage() != null) {
            java.util.regex.Matcher m = REQUEST_URL.matcher(failure.getMessage() + " ");
            if (m.find()) {
                ns = m.group(1);
                plural = m.group(2);
                name = m.group(3);
            }
        }
        Status status = e.getStatus();
        if (status != null && status.getDetails() != null) {
            if (name == null) {
                name = status.getDetails().getName();
            }
            if (plural == null) {
                plural = status.getDetails().getKind();
            }
        }
        StringBuilder b = new StringBuilder(plural == null ? "an object" : plural);
        if (name != null && !name.isEmpty()) {
            b.append(' ').append(ns == null ? "" : ns + "/").append(name);
        } else if (ns != null) {
            b.append(" in ").append(ns);
        }
        return b.toString();
    }

    public static boolean expected(Throwable failure) {
        return reason(failure) != null;
    }

    private static String statusMessage(KubernetesClientException e) {
        Status status = e.getStatus();
        String message = status == null ? null : status.getMessage();
        if (message == null || message.isBlank()) {
            return "";
        }
        return ": " + oneLine(message);
    }

    private static String oneLine(String message) {
        message = message.strip().replaceAll("\\s+", " ");
        return message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "..." : message;
    }
}
