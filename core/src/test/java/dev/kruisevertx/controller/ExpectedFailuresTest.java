package dev.kruisevertx.controller;

import dev.kruisevertx.kube.KubeExecutor;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import java.io.InterruptedIOException;
import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExpectedFailuresTest {
    private static KubernetesClientException api(int code, String reason, String message) {
        Status status = new StatusBuilder().withCode(code).withReason(reason).withMessage(message).build();
        return new KubernetesClientException(status);
    }

    @Test
    void conflictsMissingAndGoneObjectsAndALostLeaseAreExpected() {
        assertEquals("conflict (409): Operation cannot be fulfilled on pods \"web-0\": the object has been modified",
                ExpectedFailures.reason(api(409, "Conflict",
                        "Operation cannot be fulfilled on pods \"web-0\": the object has been modified")));
        assertEquals("conflict (409): pods \"web-0\" already exists",
                ExpectedFailures.reason(api(409, "AlreadyExists", "pods \"web-0\" already exists")));
        assertEquals("not found (404): pods \"web-0\" not found",
                ExpectedFailures.reason(api(404, "NotFound", "pods \"web-0\" not found")));
        assertEquals("gone (410)", ExpectedFailures.reason(api(410, "Gone", null)));
        assertEquals("write refused: this manager is not the leader",
                ExpectedFailures.reason(new KubeExecutor.NotLeaderException()));
    }

    @Test
    void wrappedExpectedFailuresAreRecognised() {
        Throwable wrapped = new CompletionException(new RuntimeException("worker failed", api(409, "Conflict", "modified")));
        assertEquals("conflict (409): modified", ExpectedFailures.reason(wrapped));
        assertTrue(ExpectedFailures.expected(new IllegalStateException(new KubeExecutor.NotLeaderException())));
    }

    @Test
    void aGuardedPatchWhoseResourceVersionTestFailedIsAStaleWrite() {
        // kube-apiserver (json-patch library) and the embedded API server (zjsonpatch) word it differently.
        assertTrue(ExpectedFailures.reason(api(422, "", "testing value /metadata/resourceVersion failed: test failed"))
                .startsWith("stale write (422"));
        assertTrue(ExpectedFailures.reason(api(422, "Invalid",
                "the server rejected our request due to an error in our request: Expected value 62 but found 65"))
                .startsWith("stale write (422"));
    }

    @Test
    void otherFailuresAreUnexpected() {
        assertNull(ExpectedFailures.reason(api(422, "Invalid", "spec.replicas: Invalid value")));
        assertNull(ExpectedFailures.reason(api(500, "InternalError", "etcd is down")));
        assertNull(ExpectedFailures.reason(api(403, "Forbidden", "pods is forbidden")));
        assertNull(ExpectedFailures.reason(new KubernetesClientException("timeout", new InterruptedIOException("timed out"))));
        assertNull(ExpectedFailures.reason(new IllegalStateException("bug")));
        assertNull(ExpectedFailures.reason(new NullPointerException()));
        assertFalse(ExpectedFailures.expected(null));
    }

    @Test
    void anAdmissionWebhooksDenialIsItsOwnKindWhateverCodeTheWebhookChose() {
        String denial = "admission webhook \"deny.example.com\" denied the request: pods labelled x are refused";
        for (int code : new int[] {400, 403, 422}) {
            ExpectedFailures.Classified c = ExpectedFailures.classify(new java.util.concurrent.CompletionException(
                    api(code, "Forbidden", denial)));
            assertEquals(ExpectedFailures.Kind.ADMISSION_DENIED, c.kind());
            assertEquals("write of an object denied (" + code + "): " + denial, c.reason());
        }
        // fabric8 quotes the request it sent: the object is named from there when the exception keeps no more.
        io.fabric8.kubernetes.api.model.Status status = new StatusBuilder().withCode(403).withMessage(denial).build();
        assertEquals("write of pods prod/web-1 denied (403): " + denial, ExpectedFailures.classify(
                new KubernetesClientException("Failure executing: DELETE at: https://10.0.0.1:6443/api/v1/namespaces/prod/"
                        + "pods/web-1. Message: " + denial + ".", 403, status)).reason());
        assertEquals("write of pods in prod denied (403): " + denial, ExpectedFailures.classify(
                new KubernetesClientException("Failure executing: POST at: https://10.0.0.1:6443/api/v1/namespaces/prod/"
                        + "pods. Message: " + denial + ".", 403, status)).reason());
        assertEquals("write of clonesets prod/web.v2 denied (403): " + denial, ExpectedFailures.classify(
                new KubernetesClientException("Failure executing: PUT at: https://h/apis/apps.kruise.io/v1alpha1/"
                        + "namespaces/prod/clonesets/web.v2/status. Message: x.", 403, status)).reason());
        // The same code without a webhook's wording is still a refusal that needs a person.
        assertEquals(ExpectedFailures.Kind.UNEXPECTED, ExpectedFailures.classify(api(403, "Forbidden",
                "pods is forbidden: User \"x\" cannot create resource \"pods\"")).kind());
        // A webhook that denies with 409 or 429 is settled as those codes are (a race, throttling).
        assertEquals(ExpectedFailures.Kind.CONFLICT, ExpectedFailures.classify(api(409, "Conflict",
                "admission webhook \"a\" denied the request: busy")).kind());
        assertNull(ExpectedFailures.reason(api(403, "Forbidden", denial)), "not part of normal operation for reason()");
    }

    @Test
    void longServerMessagesAreCutAndKeptOnOneLine() {
        String reason = ExpectedFailures.reason(api(409, "Conflict", "line one\nline two " + "x".repeat(500)));
        assertFalse(reason.contains("\n"), reason);
        assertTrue(reason.startsWith("conflict (409): line one line two x"), reason);
        assertTrue(reason.length() <= "conflict (409): ".length() + ExpectedFailures.MAX_MESSAGE + 3, reason);
    }

    @Test
    void everyFailureHasAKind() {
        assertEquals(ExpectedFailures.Kind.CONFLICT, ExpectedFailures.classify(api(409, "Conflict", "modified")).kind());
        assertEquals(ExpectedFailures.Kind.CONFLICT, ExpectedFailures.classify(
                api(422, "", "testing value /metadata/resourceVersion failed: test failed")).kind());
        assertEquals(ExpectedFailures.Kind.GONE, ExpectedFailures.classify(api(404, "NotFound", "gone")).kind());
        assertEquals(ExpectedFailures.Kind.GONE, ExpectedFailures.classify(api(410, "Gone", null)).kind());
        assertEquals(ExpectedFailures.Kind.NOT_LEADER,
                ExpectedFailures.classify(new IllegalStateException(new KubeExecutor.NotLeaderException())).kind());
        ExpectedFailures.Classified throttled = ExpectedFailures.classify(api(429, "TooManyRequests", "slow down"));
        assertEquals(ExpectedFailures.Kind.TRANSIENT, throttled.kind());
        assertEquals("throttled (429): slow down", throttled.reason());
        assertEquals("server error (500): etcd is down",
                ExpectedFailures.classify(api(500, "InternalError", "etcd is down")).reason());
        assertEquals(ExpectedFailures.Kind.TRANSIENT, ExpectedFailures.classify(
                new KubernetesClientException("timeout", new InterruptedIOException("timed out"))).kind());
        assertEquals(ExpectedFailures.Kind.TRANSIENT, ExpectedFailures.classify(
                new java.util.concurrent.CompletionException(new java.net.ConnectException("refused"))).kind());
        // A connection closed before the answer (a reset, a proxy or API server going away), as fabric8 wraps it.
        ExpectedFailures.Classified closed = ExpectedFailures.classify(new java.util.concurrent.CompletionException(
                new KubernetesClientException("Operation: [get]  for kind: [StatefulSet]  with name: [w2]  failed.",
                        new java.io.IOException("HTTP/1.1 header parser received no bytes",
                                new java.io.EOFException("EOF reached while reading")))));
        assertEquals(ExpectedFailures.Kind.TRANSIENT, closed.kind());
        assertEquals("API server connection lost: java.io.IOException: HTTP/1.1 header parser received no bytes",
                closed.reason());
        assertEquals(ExpectedFailures.Kind.TRANSIENT, ExpectedFailures.classify(
                new KubernetesClientException("failed", new java.net.SocketException("Connection reset"))).kind());
        assertEquals(ExpectedFailures.Kind.UNEXPECTED, ExpectedFailures.classify(new IllegalStateException(
                new com.fasterxml.jackson.core.JsonParseException(null, "Unexpected character"))).kind());
        assertEquals(ExpectedFailures.Kind.UNEXPECTED,
                ExpectedFailures.classify(api(422, "Invalid", "spec.replicas: Invalid value")).kind());
        assertEquals(ExpectedFailures.Kind.UNEXPECTED, ExpectedFailures.classify(api(403, "Forbidden", "no")).kind());
        assertEquals(ExpectedFailures.Kind.UNEXPECTED, ExpectedFailures.classify(new NullPointerException()).kind());
    }
}
