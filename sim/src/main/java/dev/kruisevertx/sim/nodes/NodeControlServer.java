package dev.kruisevertx.sim.nodes;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;

import java.nio.charset.StandardCharsets;

/** Serves {@link NodeControl} on its own address (for {@code sim-nodes}, which has no embedded API server). */
public final class NodeControlServer {
    private NodeControlServer() {
    }

    /** Listens on {@code hostPort} ({@code HOST:PORT}, port 0 picks one); returns the port. */
    public static Future<Integer> start(Vertx vertx, SimNodes nodes, String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0) {
            return Future.failedFuture(new IllegalArgumentException("expected HOST:PORT, got \"" + hostPort + "\""));
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            return Future.failedFuture(new IllegalArgumentException("the port of \"" + hostPort + "\" is not a number"));
        }
        NodeControl control = new NodeControl(nodes);
        return vertx.createHttpServer(new HttpServerOptions().setHost(hostPort.substring(0, colon)).setPort(port))
                .requestHandler(req -> req.body().onComplete(body -> {
                    String text = body.succeeded() ? body.result().toString(StandardCharsets.UTF_8) : "";
                    vertx.executeBlocking(() -> control.handle(req.method().name(), req.path(), text), false)
                            .onComplete(r -> {
                                NodeControl.Reply reply = r.succeeded() ? r.result()
                                        : new NodeControl.Reply(500, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                                        .objectNode().put("status", "Failure").put("message", "internal error"));
                                req.response().setStatusCode(reply.code()).putHeader("Content-Type", "application/json")
                                        .end(reply.body().toString());
                            });
                }))
                .listen().map(s -> s.actualPort());
    }
}
