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
import java.util.function.Function;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A CRI server for tests that need a runtime to misbehave in a controlled way: Vert.x gRPC on a unix
 * socket, with each method answered, failed with a status, or left hanging. Unbound methods answer
 * UNIMPLEMENTED, as a real server does.
 */
public final class FakeCriServer {
    private final Vertx vertx;
    private final Path socket;
    private final GrpcServer grpc;
    private final AtomicInteger calls = new AtomicInteger();
    private final java.util.Map<String, AtomicInteger> callsByMethod = new java.util.concurrent.ConcurrentHashMap<>();
    private HttpServer http;

    public FakeCriServer(Vertx vertx, Path socket) {
        this.vertx = vertx;
        this.socket = socket;
        this.grpc = GrpcServer.server(vertx);
    }

    public <Req, Resp> FakeCriServer answer(ServiceMethod<Req, Resp> method, Resp response) {
        grpc.callHandler(method, counted(method, req -> req.handler(msg -> req.response().end(response))));
        return this;
    }

    public <Req, Resp> FakeCriServer fail(ServiceMethod<Req, Resp> method, GrpcStatus status, String message) {
        grpc.callHandler(method, counted(method, req -> req.handler(msg -> req.response()
                .status(status).statusMessage(message).end())));
        return this;
    }

    /** Reads the request and never answers: a hung runtime. */
    public <Req, Resp> FakeCriServer hang(ServiceMethod<Req, Resp> method) {
        grpc.callHandler(method, counted(method, req -> req.handler(msg -> { })));
        return this;
    }

    /**
     * Answers each request as {@code respond} decides: a response, a failure with a {@link Failure}'s status, or
     * a future that never completes (a hung call).
     */
    public <Req, Resp> FakeCriServer handle(ServiceMethod<Req, Resp> method, Function<Req, Future<Resp>> respond) {
        grpc.callHandler(method, counted(method, req -> req.handler(msg -> respond.apply(msg).onComplete(ar -> {
            if (ar.succeeded()) {
                req.response().end(ar.result());
            } else if (ar.cause() instanceof Failure f) {
                req.response().status(f.status).statusMessage(f.getMessage()).end();
            } else {
                req.response().status(GrpcStatus.UNKNOWN).statusMessage(String.valueOf(ar.cause().getMessage())).end();
            }
        }))));
        return this;
    }

    /** A gRPC status a {@link #handle} answer fails with. */
    public static final class Failure extends RuntimeException {
        final GrpcStatus status;

        public Failure(GrpcStatus status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    private <Req, Resp> Handler<GrpcServerRequest<Req, Resp>> counted(ServiceMethod<Req, Resp> method,
                                                                      Handler<GrpcServerRequest<Req, Resp>> h) {
        AtomicInteger mine = callsByMethod.computeIfAbsent(method.methodName(), k -> new AtomicInteger());
        return req -> {
            calls.incrementAndGet();
            mine.incrementAndGet();
            h.handle(req);
        };
    }

    public int calls() {
        return calls.get();
    }

    /** Calls of one method, by its name ({@code "StopContainer"}). */
    public int calls(String methodName) {
        AtomicInteger n = callsByMethod.get(methodName);
        return n == null ? 0 : n.get();
    }

    public CriEndpoint endpoint() {
        return new CriEndpoint(socket);
    }

    public Future<FakeCriServer> start() {
        return vertx.createHttpServer()
                .requestHandler(grpc)
                .listen(SocketAddress.domainSocketAddress(socket.toString()))
                .map(server -> {
                    http = server;
                    return this;
                });
    }

    public Future<Void> close() {
        return http == null ? Future.succeededFuture() : http.close();
    }
}
