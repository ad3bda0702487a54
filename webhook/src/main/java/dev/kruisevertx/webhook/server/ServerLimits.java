package dev.kruisevertx.webhook.server;

import java.time.Duration;

/**
 * What the webhook server accepts and for how long it waits. The defaults follow kube-apiserver, the only intended
 * client: it sends objects of up to 3 MiB (its request body limit; etcd stores 1.5 MiB by default), an UPDATE review
 * carries the object and the old object, and earlier mutating webhooks may have grown the object, so a review can
 * reach twice 3 MiB plus its envelope; it waits at most 30 s for a webhook (timeoutSeconds, default 10) and closes
 * idle connections after 90 s.
 *
 * @param maxBodyBytes         largest request body; larger ones get 413 and the connection is closed
 * @param inlineBodyBytes      bodies up to this size are judged on the event loop (a pod: microseconds); larger ones
 *                             on the large-request worker, so their parsing, decoding and diffing never hold it up
 * @param largeBodyBudgetBytes total size of the large bodies being read, queued or judged at once (by their
 *                             Content-Length, or {@code maxBodyBytes} when chunked); a request beyond it gets 429
 * @param largeRequestWorkers  threads judging large requests (their memory, several times the body, is the bound)
 * @param headerTimeout        a new connection must deliver its first request's headers within this
 * @param bodyTimeout          a request's body must arrive completely within this after its headers
 * @param idleTimeout          a kept-alive connection with no request for this long is closed; longer than
 *                             kube-apiserver's own 90 s, so the client closes first and never races the server
 * @param maxConnections       open connections; further ones are closed at once
 * @param maxJsonValues        most JSON values (objects, arrays, scalars) in one large review: judging takes about
 *                             {@value #HEAP_BYTES_PER_VALUE} bytes of heap per value, so a review with more is refused
 *                             (an AdmissionReview denial with code 413) rather than risk the heap; by default what a
 *                             quarter of the maximum heap holds
 */
public record ServerLimits(long maxBodyBytes, int inlineBodyBytes, long largeBodyBudgetBytes, int largeRequestWorkers,
                           Duration headerTimeout, Duration bodyTimeout, Duration idleTimeout, int maxConnections,
                           long maxJsonValues) {
    public static final long DEFAULT_MAX_BODY_BYTES = 8L << 20;
    /**
     * Heap a value takes while judged, rounded up from the smallest heap in which a CloneSet of 100,000 one-line
     * containers (300,000 values) could still be defaulted (about 180 MiB: request tree, decoded model, trees before and
     * after, patch, encoded answer).
     */
    public static final int HEAP_BYTES_PER_VALUE = 640;

    public ServerLimits {
        if (maxBodyBytes <= 0 || inlineBodyBytes < 0 || largeRequestWorkers < 1 || maxConnections < 1
                || maxJsonValues < 1) {
            throw new IllegalArgumentException("webhook server limits must be positive: " + maxBodyBytes + " body bytes, "
                    + largeRequestWorkers + " workers, " + maxConnections + " connections");
        }
        if (largeBodyBudgetBytes < maxBodyBytes) {
            throw new IllegalArgumentException("the large-body budget (" + largeBodyBudgetBytes
                    + " bytes) must hold at least one body of the maximum size (" + maxBodyBytes + " bytes)");
        }
        requirePositive(headerTimeout, "header timeout");
        requirePositive(bodyTimeout, "body timeout");
        requirePositive(idleTimeout, "idle timeout");
    }

    private static void requirePositive(Duration d, String what) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("webhook server " + what + " must be positive, got " + d);
        }
    }

    public static ServerLimits defaults() {
        return new ServerLimits(DEFAULT_MAX_BODY_BYTES, 64 << 10, 3 * DEFAULT_MAX_BODY_BYTES, 1,
                Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(120), 1024,
                Runtime.getRuntime().maxMemory() / 4 / HEAP_BYTES_PER_VALUE);
    }

    /** Another body limit; the large-body budget grows with it to hold three such bodies if it held fewer. */
    public ServerLimits withMaxBodyBytes(long bytes) {
        return new ServerLimits(bytes, (int) Math.min(inlineBodyBytes, bytes), Math.max(largeBodyBudgetBytes, 3 * bytes),
                largeRequestWorkers, headerTimeout, bodyTimeout, idleTimeout, maxConnections, maxJsonValues);
    }

    public ServerLimits withInlineBodyBytes(int bytes) {
        return new ServerLimits(maxBodyBytes, bytes, largeBodyBudgetBytes, largeRequestWorkers, headerTimeout,
                bodyTimeout, idleTimeout, maxConnections, maxJsonValues);
    }

    public ServerLimits withLargeBodyBudgetBytes(long bytes) {
        return new ServerLimits(maxBodyBytes, inlineBodyBytes, bytes, largeRequestWorkers, headerTimeout,
                bodyTimeout, idleTimeout, maxConnections, maxJsonValues);
    }

    public ServerLimits withTimeouts(Duration header, Duration body, Duration idle) {
        return new ServerLimits(maxBodyBytes, inlineBodyBytes, largeBodyBudgetBytes, largeRequestWorkers, header, body,
                idle, maxConnections, maxJsonValues);
    }

    public ServerLimits withMaxConnections(int connections) {
        return new ServerLimits(maxBodyBytes, inlineBodyBytes, largeBodyBudgetBytes, largeRequestWorkers, headerTimeout,
                bodyTimeout, idleTimeout, connections, maxJsonValues);
    }

    public ServerLimits withMaxJsonValues(long values) {
        return new ServerLimits(maxBodyBytes, inlineBodyBytes, largeBodyBudgetBytes, largeRequestWorkers, headerTimeout,
                bodyTimeout, idleTimeout, maxConnections, values);
    }
}
