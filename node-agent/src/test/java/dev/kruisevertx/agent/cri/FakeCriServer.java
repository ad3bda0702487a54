package dev.kruisevertx.agent.cri;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerRequest;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A CRI server for tests that need a runtime to misbehave in a controlled way: Vert.x gRPC on a unix
 * socket, with each method answered, failed with a status, or left hanging. Unbound methods answer
 * UNIMPLEMENTED, as a real server does.
 */
final class FakeCriServer {
    private final Vertx vertx;
    private final Path socket;
    private final GrpcServer grpc;
    private final AtomicInteger calls = new AtomicInteger();
    private HttpServer http;

    FakeCriServer(Vertx vertx, Path socket) {
        this.vertx = vertx;
        this.socket = socket;
        this.grpc = GrpcServer.server(vertx);
    }

    <Req, Resp> FakeCriServer answer(ServiceMethod<Req, Resp> method, Resp response) {
        grpc.callHandler(method, counted(req -> req.handler(msg -> req.response().end(response))));
        return this;
    }

    <Req, Resp> FakeCriServer fail(ServiceMethod<Req, Resp> method, GrpcStatus status, String message) {
        grpc.callHandler(method, counted(req -> req.handler(msg -> req.response()
                .status(status).statusMessage(message).end())));
        return this;
    }

    /** Reads the request and never answers: a hung runtime. */
    <Req, Resp> FakeCriServer hang(ServiceMethod<Req, Resp> method) {
        grpc.callHandler(method, counted(req -> req.handler(msg -> { })));
        return this;
    }

    private <Req, Resp> Handler<GrpcServerRequest<Req, Resp>> counted(Handler<GrpcServerRequest<Req, Resp>> h) {
        return req -> {
            calls.incrementAndGet();
            h.handle(req);
        };
    }

    int calls() {
        return calls.get();
    }

    CriEndpoint endpoint() {
        return new CriEndpoint(socket);
    }

    Future<FakeCriServer> start() {
        return vertx.createHttpServer()
                .requestHandler(grpc)
                .listen(SocketAddress.domainSocketAddress(socket.toString()))
                .map(server -> {
                    http = server;
                    return this;
                });
    }

    Future<Void> close() {
        return http == null ? Future.succeededFuture() : http.close();
    }
}
