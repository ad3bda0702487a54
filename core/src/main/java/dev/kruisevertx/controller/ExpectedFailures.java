package dev.kruisevertx.controller;

import dev.kruisevertx.kube.KubeExecutor;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Tells the failures every controller meets in normal operation from bugs and outages: an optimistic-concurrency
 * conflict or an object that already exists (409), an object deleted meanwhile (404, 410), a write refused because
 * this manager no longer leads. Those are retried and deserve one log line with a reason; anything else keeps its
 * stack trace.
 */
public final class ExpectedFailures {
    /** Bounds the API server's message in a log line (it names the object; long ones are cut). */
    static final int MAX_MESSAGE = 200;
    /** Bounds the walk down the cause chain (wrappers such as CompletionException add a level each). */
    private static final int MAX_DEPTH = 8;
    private static final java.util.regex.Pattern PATCH_TEST_FAILED =
            java.util.regex.Pattern.compile("testing value \\S+ failed|Expected value .* but found");

    private ExpectedFailures() {
    }

    /** A short reason (e.g. {@code "conflict (409): Operation cannot be fulfilled on pods \"a\": ..."}), or null when unexpected. */
    public static String reason(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = t.getCause()) {
            if (t instanceof KubeExecutor.NotLeaderException) {
                return "write refused: this manager is not the leader";
            }
            if (t instanceof KubernetesClientException k) {
                String what = switch (k.getCode()) {
                    case 409 -> "conflict (409)";
                    case 404 -> "not found (404)";
                    case 410 -> "gone (410)";
                    case 422 -> failedPatchTest(k) ? "stale write (422: a guarded patch's test failed)" : null;
                    default -> null;
                };
                // Any other API error (other 422s, 5xx, timeouts: code 0) says something is wrong: not expected.
                return what == null ? null : what + statusMessage(k);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
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

    public static boolean expected(Throwable failure) {
        return reason(failure) != null;
    }

    private static String statusMessage(KubernetesClientException e) {
        Status status = e.getStatus();
        String message = status == null ? null : status.getMessage();
        if (message == null || message.isBlank()) {
            return "";
        }
        message = message.strip().replaceAll("\\s+", " ");
        return ": " + (message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "..." : message);
    }
}
