package dev.kruisevertx.agent.cri;

import io.vertx.core.http.StreamResetException;
import io.vertx.grpc.common.GrpcErrorException;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.MessageSizeOverflowException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Locale;

/** Turns whatever a failed call produced (transport error, reset stream, timer) into a {@link CriException}. */
final class CriFailures {
    private CriFailures() {
    }

    /**
     * @param deadline the call's deadline, or null
     * @param elapsed  how long the call ran before it failed
     */
    static CriException explain(String call, CriEndpoint endpoint, Duration deadline, Duration elapsed, Throwable err) {
        if (err instanceof CriException e) {
            return e;
        }
        // The client never cancels a call itself, so a local cancel or reset once the deadline has
        // passed is the deadline timer firing.
        boolean deadlinePassed = deadline != null && elapsed.compareTo(deadline) >= 0;
        if (err instanceof GrpcErrorException e) {
            GrpcStatus status = e.status();
            if (deadlinePassed && (status == GrpcStatus.CANCELLED || status == GrpcStatus.DEADLINE_EXCEEDED)) {
                return deadlineExceeded(call, endpoint, deadline, err);
            }
            return new CriException(call, endpoint, status, "stream ended with " + status.name(), err);
        }
        if (err instanceof StreamResetException && deadlinePassed) {
            return deadlineExceeded(call, endpoint, deadline, err);
        }
        if (err instanceof MessageSizeOverflowException) {
            return new CriException(call, endpoint, GrpcStatus.RESOURCE_EXHAUSTED, "answer too large: " + err.getMessage(), err);
        }
        String message = String.valueOf(err.getMessage());
        String lower = message.toLowerCase(Locale.ROOT);
        // Netty's epoll transport reports a missing socket file as FileNotFoundException (no message).
        if (err instanceof FileNotFoundException || lower.contains("no such file or directory")) {
            return new CriException(call, endpoint, GrpcStatus.UNAVAILABLE,
                    "socket " + endpoint.socket() + " does not exist (runtime not running, or host /var/run not mounted?)", err);
        }
        if (lower.contains("connection refused")) {
            return new CriException(call, endpoint, GrpcStatus.UNAVAILABLE,
                    "nothing listens on socket " + endpoint.socket() + " (runtime stopped?)", err);
        }
        if (lower.contains("permission denied")) {
            return new CriException(call, endpoint, GrpcStatus.UNAVAILABLE,
                    "no permission to open socket " + endpoint.socket() + " (the agent must run as root)", err);
        }
        if (err instanceof ConnectException) {
            return new CriException(call, endpoint, GrpcStatus.UNAVAILABLE, "cannot connect: " + message, err);
        }
        if (deadlinePassed) {
            return deadlineExceeded(call, endpoint, deadline, err);
        }
        // Any other transport failure (broken pipe, reset, closed channel): the runtime went away
        // mid-call. gRPC calls that UNAVAILABLE, and the next call reconnects.
        // A call raced a connection the runtime is shutting down (HTTP/2 GOAWAY; Netty's Http2Exception is not
        // an IOException): the same as a lost connection.
        if (err instanceof IOException || lower.contains("closed") || lower.contains("broken pipe")
                || lower.contains("connection reset") || lower.contains("goaway")
                || err.getClass().getName().startsWith("io.netty.handler.codec.http2.Http2Exception")) {
            return new CriException(call, endpoint, GrpcStatus.UNAVAILABLE, "connection lost: " + message, err);
        }
        return new CriException(call, endpoint, GrpcStatus.UNKNOWN, err.getClass().getSimpleName() + ": " + message, err);
    }

    private static CriException deadlineExceeded(String call, CriEndpoint endpoint, Duration deadline, Throwable err) {
        return new CriException(call, endpoint, GrpcStatus.DEADLINE_EXCEEDED,
                "no answer within the " + deadline.toMillis() + " ms deadline", err);
    }
}
