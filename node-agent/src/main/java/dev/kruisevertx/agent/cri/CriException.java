package dev.kruisevertx.agent.cri;

import io.vertx.grpc.common.GrpcStatus;

/**
 * A CRI call that did not succeed: which call, against which runtime endpoint, the gRPC status
 * (UNAVAILABLE when the socket could not be reached at all) and the runtime's own message.
 */
public class CriException extends RuntimeException {
    private final String call;
    private final CriEndpoint endpoint;
    private final GrpcStatus status;
    private final String detail;

    public CriException(String call, CriEndpoint endpoint, GrpcStatus status, String detail, Throwable cause) {
        super("CRI " + call + " on " + endpoint + " failed: " + status.name() + (detail == null || detail.isEmpty() ? "" : ": " + detail), cause);
        this.call = call;
        this.endpoint = endpoint;
        this.status = status;
        this.detail = detail;
    }

    /** The CRI method, e.g. {@code RuntimeService/StopContainer}. */
    public String call() {
        return call;
    }

    public CriEndpoint endpoint() {
        return endpoint;
    }

    public GrpcStatus status() {
        return status;
    }

    /** The runtime's message (or the transport error), without the call and endpoint prefix. */
    public String detail() {
        return detail;
    }

    public boolean isNotFound() {
        return status == GrpcStatus.NOT_FOUND;
    }

    /**
     * Whether trying again later can help: the runtime was unreachable, busy or too slow. A NOT_FOUND
     * or INVALID_ARGUMENT answer will not change by retrying.
     */
    public boolean isRetryable() {
        return status == GrpcStatus.UNAVAILABLE
                || status == GrpcStatus.DEADLINE_EXCEEDED
                || status == GrpcStatus.RESOURCE_EXHAUSTED
                || status == GrpcStatus.ABORTED;
    }

    /** For {@link Backoff#retry}: true for a CRI failure that retrying can fix. */
    public static boolean retryable(Throwable err) {
        return err instanceof CriException e && e.isRetryable();
    }
}
