package dev.kruisevertx.webhook.server;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * Keeps slow or idle clients from holding connections for good: caps open connections, and closes a connection
 * whose first request headers do not arrive within the header timeout, whose kept-alive wait for the next request
 * exceeds the idle timeout, or whose request body does not arrive within the body timeout (after a 408). Vert.x has
 * no header or body timeout of its own and its idle timeout is reset by every byte, so a client trickling one byte
 * at a time would never hit it. Confined to the server's event loop, like the connections it watches.
 */
final class ConnectionGuard {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionGuard.class);
    private static final String BODY_TIMER = "kruise.bodyTimer";

    private final Vertx vertx;
    private final ServerLimits limits;
    private final WebhookMetrics metrics;
    private final Map<HttpConnection, Waiting> open = new HashMap<>();

    /** A connection's timer while it waits for request headers, and its requests in progress. */
    private static final class Waiting {
        long timer = -1;
        int requests;
    }

    ConnectionGuard(Vertx vertx, ServerLimits limits, WebhookMetrics metrics) {
        this.vertx = vertx;
        this.limits = limits;
        this.metrics = metrics;
    }

    /** The server's connection handler (called once TLS is established). */
    void connected(HttpConnection conn) {
        if (open.size() >= limits.maxConnections()) {
            metrics.connectionClosed(WebhookMetrics.LIMIT);
            LOG.debug("Closing a connection from {}: {} connections are open, the limit", conn.remoteAddress(),
                    open.size());
            conn.close();
            return;
        }
        Waiting waiting = new Waiting();
        open.put(conn, waiting);
        conn.closeHandler(v -> {
            Waiting w = open.remove(conn);
            if (w != null) {
                cancel(w);
            }
        });
        await(conn, waiting, limits.headerTimeout().toMillis(), WebhookMetrics.HEADER_TIMEOUT);
    }

    /** First route of every request: stops the header wait and starts the body timer. */
    void requestStarted(RoutingContext ctx) {
        HttpConnection conn = ctx.request().connection();
        Waiting waiting = open.get(conn);
        if (waiting != null) {
            cancel(waiting);
            waiting.requests++;
        }
        ctx.put(BODY_TIMER, vertx.setTimer(limits.bodyTimeout().toMillis(), id -> bodyTimedOut(ctx)));
        ctx.addEndHandler(done -> {
            cancelBodyTimer(ctx);
            if (waiting != null && open.get(conn) == waiting && --waiting.requests == 0) {
                await(conn, waiting, limits.idleTimeout().toMillis(), WebhookMetrics.IDLE_TIMEOUT);
            }
        });
        ctx.next();
    }

    /** Route after the body handler: the body is complete. */
    void bodyReceived(RoutingContext ctx) {
        cancelBodyTimer(ctx);
        ctx.next();
    }

    int openConnections() {
        return open.size();
    }

    private void await(HttpConnection conn, Waiting waiting, long millis, String reason) {
        cancel(waiting);
        waiting.timer = vertx.setTimer(millis, id -> {
            waiting.timer = -1;
            metrics.connectionClosed(reason);
            LOG.debug("Closing the connection from {}: no request within {} ms ({})", conn.remoteAddress(), millis,
                    reason);
            conn.close();
        });
    }

    private void cancel(Waiting waiting) {
        if (waiting.timer >= 0) {
            vertx.cancelTimer(waiting.timer);
            waiting.timer = -1;
        }
    }

    private void cancelBodyTimer(RoutingContext ctx) {
        Long timer = ctx.remove(BODY_TIMER);
        if (timer != null) {
            vertx.cancelTimer(timer);
        }
    }

    private void bodyTimedOut(RoutingContext ctx) {
        ctx.remove(BODY_TIMER);
        metrics.connectionClosed(WebhookMetrics.BODY_TIMEOUT);
        LOG.debug("Closing the connection from {}: the body of {} {} did not arrive within {}",
                ctx.request().remoteAddress(), ctx.request().method(), ctx.normalizedPath(), limits.bodyTimeout());
        Responses.plainAndClose(ctx, 408, "request body not received within " + limits.bodyTimeout().toSeconds()
                + "s");
    }
}
