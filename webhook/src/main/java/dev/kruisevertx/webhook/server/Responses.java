package dev.kruisevertx.webhook.server;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/** Plain-text answers of the webhook server. */
final class Responses {
    private Responses() {
    }

    /** Answers unless an answer was already sent or the client is gone. */
    static void plain(RoutingContext ctx, int status, String message) {
        HttpServerResponse response = ctx.response();
        if (response.ended() || response.closed() || response.headWritten()) {
            return;
        }
        response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
                .end(message + "\n");
    }

    /**
     * Answers and closes the connection: after a refused or unfinished body the rest of it may still be on the
     * wire, and the connection cannot carry another request.
     */
    static void plainAndClose(RoutingContext ctx, int status, String message) {
        HttpServerResponse response = ctx.response();
        if (response.ended() || response.closed() || response.headWritten()) {
            ctx.request().connection().close();
            return;
        }
        response.setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
                .putHeader(HttpHeaders.CONNECTION, "close")
                .end(message + "\n")
                .onComplete(done -> ctx.request().connection().close());
    }
}
