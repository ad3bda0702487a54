package dev.kruisevertx.bench.cache;

import io.netty.buffer.Unpooled;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.internal.buffer.BufferInternal;

/**
 * A minimal stand-in for the API server's pod endpoint: answers {@code GET /api/v1/pods} lists page by page
 * ({@code limit}/{@code continue}), generating each page's pods on the fly so the benchmark's heap holds only what
 * the cache keeps, and holds watches open without events (the cache is measured at rest after its first list).
 * A page goes out as one buffer; a list without a limit (or a page above {@value #STREAM_ABOVE} pods) is streamed
 * with chunked transfer, {@value #CHUNK} pods at a time, so the server never holds more than one chunk.
 */
final class PagingPodServer implements AutoCloseable {
    private final Vertx vertx = Vertx.vertx();
    private final RealisticPods pods = new RealisticPods();
    /** Lists of up to this many pods are sent as one buffer with a content length (the paged case). */
    private static final int STREAM_ABOVE = 2_000;
    /** Pods per chunk of a streamed list. */
    private static final int CHUNK = 500;
    private final int total;
    private final HttpServer server;

    PagingPodServer(int total) throws Exception {
        this.total = total;
        // HTTP/1.1 only: the JDK client's h2c upgrade and HTTP/2 flow control would make the pages the bottleneck.
        this.server = vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(false))
                .webSocketHandler(ws -> { /* a watch: held open, silent */ })
                .requestHandler(this::handle)
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get();
    }

    String url() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    private void handle(HttpServerRequest req) {
        if (!req.path().equals("/api/v1/pods")) {
            req.response().setStatusCode(404).end("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":404}");
            return;
        }
        if ("true".equals(req.getParam("watch"))) {
            req.response().setChunked(true).putHeader("content-type", "application/json").writeHead();
            return;
        }
        int limit = req.getParam("limit") == null ? total : Integer.parseInt(req.getParam("limit"));
        int from = req.getParam("continue") == null || req.getParam("continue").isEmpty() ? 0
                : Integer.parseInt(req.getParam("continue"));
        int to = (int) Math.min(total, (long) from + limit);
        HttpServerResponse res = req.response().putHeader("content-type", "application/json");
        if (to - from <= STREAM_ABOVE) {
            // A page is built on a worker: 500 pods are ~5 MB of byte copies (a few ms), too much for an event loop.
            vertx.executeBlocking(() -> chunk(from, to, from, to)).onComplete(ar -> {
                if (ar.failed()) {
                    res.setStatusCode(500).end();
                } else {
                    res.end(ar.result());
                }
            });
        } else {
            // A whole list (no limit) of many pods would not fit one array: stream it in chunks, one in flight.
            res.setChunked(true);
            streamChunks(res, from, to, from);
        }
    }

    private void streamChunks(HttpServerResponse res, int from, int to, int next) {
        int end = Math.min(to, next + CHUNK);
        vertx.executeBlocking(() -> chunk(from, to, next, end))
                .compose(res::write)
                .onComplete(ar -> {
                    if (ar.failed()) {
                        res.reset(); // the client sees a broken list and retries, as after a real server's failure
                    } else if (end == to) {
                        res.end();
                    } else {
                        streamChunks(res, from, to, end);
                    }
                });
    }

    /** The bytes of pods {@code [first, end)} of the list answering {@code [from, to)}, with its head or tail. */
    private Buffer chunk(int from, int to, int first, int end) {
        RealisticPods.Bytes b = new RealisticPods.Bytes((end - first) * 10_400 + 200);
        if (first == from) {
            b.append("{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\"5000000");
            if (to < total) {
                b.append("\",\"continue\":\"" + to);
            }
            b.append("\"},\"items\":[");
        }
        for (int i = first; i < end; i++) {
            if (i > from) {
                b.append((byte) ',');
            }
            pods.write(i, b);
        }
        if (end == to) {
            b.append("]}");
        }
        return BufferInternal.buffer(Unpooled.wrappedBuffer(b.buf, 0, b.len)); // no 5 MB copy
    }

    @Override
    public void close() throws Exception {
        server.close().toCompletionStage().toCompletableFuture().get();
        vertx.close().toCompletionStage().toCompletableFuture().get();
    }
}
