package dev.kruisevertx.sim.faults;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.ServerWebSocketHandshake;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A fault-injecting HTTP proxy on loopback between a Kubernetes client and an API server (plain HTTP, such as the
 * embedded one). It forwards HTTP/1.1 requests, chunked watches and WebSocket watches, and injects the failures of
 * {@link FaultPlan} from a seeded random source: the same seed and the same order of requests give the same faults,
 * so a failing run can be replayed. Every request is logged ({@link #log()}) and every fault counted.
 *
 * <p>One proxy per client: its log then tells which client did what (the write fence of leader election is checked
 * on the log of the old leader's proxy).
 */
public final class FaultProxy implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FaultProxy.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Enough for a 10-minute run of a few managers; older entries are dropped (counts stay exact). */
    private static final int LOG_LIMIT = 400_000;

    private final Vertx vertx;
    private final URI upstream;
    private final Random random;
    private final HttpClient client;
    private final WebSocketClient wsClient;
    private final Map<FaultClass, AtomicLong> counts = new EnumMap<>(FaultClass.class);
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong forwarded = new AtomicLong();
    private final ArrayDeque<ProxiedRequest> log = new ArrayDeque<>();
    private final Set<HttpConnection> connections = ConcurrentHashMap.newKeySet();
    private final Set<Runnable> openWatches = ConcurrentHashMap.newKeySet();
    private volatile FaultPlan plan;
    private volatile long partitionedUntil;
    private HttpServer server;

    private FaultProxy(Vertx vertx, URI upstream, long seed, FaultPlan plan) {
        this.vertx = vertx;
        this.upstream = upstream;
        this.random = new Random(seed);
        this.plan = plan.copy();
        for (FaultClass f : FaultClass.values()) {
            counts.put(f, new AtomicLong());
        }
        // Watches hold a connection each for their lifetime: a generous pool, no idle timeout.
        this.client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost(upstream.getHost())
                .setDefaultPort(upstream.getPort()).setKeepAlive(true), new PoolOptions().setHttp1MaxSize(512));
        this.wsClient = vertx.createWebSocketClient(new WebSocketClientOptions()
                .setMaxFrameSize(16 * 1024 * 1024).setMaxMessageSize(64 * 1024 * 1024));
    }

    /**
     * Starts a proxy on 127.0.0.1 (a port the OS picks) in front of {@code upstreamUrl}, an {@code http://} URL.
     */
    public static Future<FaultProxy> start(Vertx vertx, String upstreamUrl, long seed, FaultPlan plan) {
        URI upstream = URI.create(upstreamUrl);
        if (!"http".equals(upstream.getScheme()) || upstream.getPort() <= 0) {
            return Future.failedFuture(new IllegalArgumentException(
                    "the fault proxy forwards to a plain http://host:port API server, not " + upstreamUrl));
        }
        FaultProxy proxy = new FaultProxy(vertx, upstream, seed, plan);
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0)
                .setMaxWebSocketFrameSize(16 * 1024 * 1024).setMaxWebSocketMessageSize(64 * 1024 * 1024));
        server.connectionHandler(proxy::onConnection).requestHandler(proxy::onRequest)
                .webSocketHandshakeHandler(proxy::onWebSocket);
        return server.listen().map(s -> {
            proxy.server = s;
            return proxy;
        });
    }

    /** The URL clients use instead of the API server's. */
    public String url() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    /** Replaces the fault rates from now on (the random sequence continues). */
    public void plan(FaultPlan plan) {
        this.plan = plan.copy();
    }

    public FaultPlan plan() {
        return plan.copy();
    }

    /**
     * Cuts this proxy's client off from the API server for {@code duration}: open connections (watches included)
     * are closed now, and every request until then is refused by closing its connection.
     */
    public void partition(Duration duration) {
        partitionedUntil = System.currentTimeMillis() + duration.toMillis();
        counts.get(FaultClass.PARTITION).incrementAndGet();
        LOG.info("partition for {} ms: closing {} connections", duration.toMillis(), connections.size());
        List<Runnable> watches = new ArrayList<>(openWatches);
        watches.forEach(Runnable::run);
        for (HttpConnection c : new ArrayList<>(connections)) {
            c.close();
        }
    }

    /**
     * Cuts every open watch now (counted as {@link FaultClass#WATCH_DROPPED}), so the client's new watches go through
     * the current plan: watches opened before a plan with watch faults would otherwise never meet them.
     */
    public void dropWatches() {
        List<Runnable> watches = new ArrayList<>(openWatches);
        counts.get(FaultClass.WATCH_DROPPED).addAndGet(watches.size());
        watches.forEach(Runnable::run);
    }

    /** Ends a partition early. */
    public void heal() {
        partitionedUntil = 0;
    }

    public boolean partitioned() {
        return System.currentTimeMillis() < partitionedUntil;
    }

    /** Faults injected per class (PARTITION counts partitions started plus requests refused during them). */
    public Map<FaultClass, Long> faultCounts() {
        Map<FaultClass, Long> out = new EnumMap<>(FaultClass.class);
        counts.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    public long faults(FaultClass fault) {
        return counts.get(fault).get();
    }

    public long requests() {
        return requests.get();
    }

    public long forwardedRequests() {
        return forwarded.get();
    }

    /** The logged requests (the most recent {@value #LOG_LIMIT}), oldest first. */
    public List<ProxiedRequest> log() {
        synchronized (log) {
            return new ArrayList<>(log);
        }
    }

    public List<ProxiedRequest> log(Predicate<ProxiedRequest> filter) {
        return log().stream().filter(filter).toList();
    }

    static boolean isWrite(String method) {
        return switch (method) {
            case "POST", "PUT", "PATCH", "DELETE" -> true;
            default -> false;
        };
    }

    private void onConnection(HttpConnection c) {
        connections.add(c);
        c.closeHandler(v -> connections.remove(c));
    }

    private void record(String method, String path, boolean watch, boolean wasForwarded, int status, FaultClass fault) {
        if (fault != null) {
            counts.get(fault).incrementAndGet();
        }
        if (wasForwarded) {
            forwarded.incrementAndGet();
        }
        ProxiedRequest r = new ProxiedRequest(System.currentTimeMillis(), method, path, watch, wasForwarded, status, fault);
        synchronized (log) {
            if (log.size() >= LOG_LIMIT) {
                log.removeFirst();
            }
            log.addLast(r);
        }
    }

    /** Picks the fault for one request (or null), drawing once from the seeded sequence. */
    private FaultClass decide(boolean write, boolean watch, boolean resumingWatch) {
        FaultPlan p = plan;
        double r;
        synchronized (random) {
            r = random.nextDouble();
        }
        double sum = 0;
        for (FaultClass f : FaultClass.values()) {
            boolean applies = switch (f) {
                case CONFLICT -> write;
                case WATCH_DROPPED -> watch;
                case WATCH_GONE -> resumingWatch;
                case PARTITION -> false;
                default -> true;
            };
            if (applies) {
                sum += p.rate(f);
                if (r < sum) {
                    return f;
                }
            }
        }
        return null;
    }

    private long randomMillis(Duration max, double minFraction) {
        double f;
        synchronized (random) {
            f = minFraction + (1 - minFraction) * random.nextDouble();
        }
        return Math.max(1, (long) (max.toMillis() * f));
    }

    private static boolean isWatch(MultiMap params) {
        String w = params.get("watch");
        return "true".equals(w) || "1".equals(w);
    }

    private static boolean isResume(MultiMap params) {
        String rv = params.get("resourceVersion");
        return rv != null && !rv.isEmpty() && !"0".equals(rv);
    }

    private void onRequest(HttpServerRequest req) {
        requests.incrementAndGet();
        String method = req.method().name();
        String path = req.path();
        boolean watch = isWatch(req.params());
        if (partitioned()) {
            record(method, path, watch, false, 0, FaultClass.PARTITION);
            req.connection().close();
            return;
        }
        FaultClass fault = decide(isWrite(method), watch, watch && isResume(req.params()));
        req.body().onComplete(ar -> {
            if (ar.failed()) {
                return; // the client went away while sending
            }
            Buffer body = ar.result();
            FaultPlan p = plan;
            if (fault == null) {
                forward(req, body, watch, null);
                return;
            }
            switch (fault) {
                case CONFLICT -> answerStatus(req, 409, "Conflict", "the object has been modified; please apply your"
                        + " changes to the latest version and try again (injected)", fault, watch);
                case TOO_MANY_REQUESTS -> {
                    req.response().putHeader("Retry-After", String.valueOf(p.timing(FaultClass.TOO_MANY_REQUESTS).toSeconds()));
                    answerStatus(req, 429, "TooManyRequests", "too many requests (injected)", fault, watch);
                }
                case INTERNAL_ERROR -> answerStatus(req, 500, "InternalError", "internal error (injected)", fault, watch);
                case UNAVAILABLE -> answerStatus(req, 503, "ServiceUnavailable", "unavailable (injected)", fault, watch);
                case SLOW -> vertx.setTimer(randomMillis(p.timing(FaultClass.SLOW), 0.1), t -> forward(req, body, watch, fault));
                case TIMEOUT -> vertx.setTimer(p.timing(FaultClass.TIMEOUT).toMillis(), t -> {
                    record(method, path, watch, false, 0, fault);
                    req.connection().close();
                });
                case CONNECTION_RESET -> {
                    record(method, path, watch, false, 0, fault);
                    req.connection().close();
                }
                case WATCH_GONE -> {
                    record(method, path, true, false, 200, fault);
                    req.response().setChunked(true).putHeader("Content-Type", "application/json").setStatusCode(200)
                            .end(Buffer.buffer(goneEvent()).appendString("\n"));
                }
                case WATCH_DROPPED -> forward(req, body, true, fault);
                default -> forward(req, body, watch, null);
            }
        });
    }

    private void answerStatus(HttpServerRequest req, int code, String reason, String message, FaultClass fault,
                              boolean watch) {
        record(req.method().name(), req.path(), watch, false, code, fault);
        HttpServerResponse resp = req.response();
        if (resp.closed() || resp.ended()) {
            return;
        }
        resp.setStatusCode(code).putHeader("Content-Type", "application/json").end(status(code, reason, message));
    }

    private static String status(int code, String reason, String message) {
        ObjectNode s = MAPPER.createObjectNode().put("kind", "Status").put("apiVersion", "v1");
        s.putObject("metadata");
        s.put("status", "Failure").put("message", message).put("reason", reason).put("code", code);
        return s.toString();
    }

    private static String goneEvent() {
        ObjectNode e = MAPPER.createObjectNode().put("type", "ERROR");
        ObjectNode s = e.putObject("object").put("kind", "Status").put("apiVersion", "v1");
        s.putObject("metadata");
        s.put("status", "Failure").put("message", "too old resource version (injected)").put("reason", "Expired")
                .put("code", 410);
        return e.toString();
    }

    private void forward(HttpServerRequest req, Buffer body, boolean watch, FaultClass fault) {
        String method = req.method().name();
        String path = req.path();
        HttpServerResponse resp = req.response();
        if (resp.closed()) {
            return;
        }
        if (partitioned()) {
            // A request delayed past the start of a partition never reaches the API server.
            record(method, path, watch, false, 0, FaultClass.PARTITION);
            req.connection().close();
            return;
        }
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.valueOf(method)).setURI(req.uri());
        req.headers().forEach(h -> {
            if (!isHopByHop(h.getKey())) {
                options.addHeader(h.getKey(), h.getValue());
            }
        });
        client.request(options).compose(creq -> {
            // The client went away: stop the upstream exchange too (a watch would otherwise stay open upstream).
            resp.closeHandler(v -> creq.reset());
            Runnable cut = () -> {
                creq.reset();
                req.connection().close();
            };
            if (watch) {
                openWatches.add(cut);
                resp.closeHandler(v -> {
                    openWatches.remove(cut);
                    creq.reset();
                });
            }
            return creq.send(body).map(cresp -> {
                record(method, path, watch, true, cresp.statusCode(), fault);
                if (resp.closed()) {
                    creq.reset();
                    return null;
                }
                resp.setStatusCode(cresp.statusCode());
                cresp.headers().forEach(h -> {
                    if (!isHopByHop(h.getKey()) && !"Content-Length".equalsIgnoreCase(h.getKey())) {
                        resp.putHeader(h.getKey(), h.getValue());
                    }
                });
                String length = cresp.getHeader("Content-Length");
                if (length != null) {
                    resp.putHeader("Content-Length", length);
                } else {
                    resp.setChunked(true);
                }
                if (fault == FaultClass.WATCH_DROPPED) {
                    vertx.setTimer(randomMillis(plan.timing(FaultClass.WATCH_DROPPED), 0.05), t -> cut.run());
                }
                cresp.pipeTo(resp).onComplete(done -> openWatches.remove(cut));
                return null;
            });
        }).onFailure(e -> {
            LOG.debug("forwarding {} {} failed: {}", method, path, e.toString());
            record(method, path, watch, false, 502, null);
            if (!resp.closed() && !resp.headWritten()) {
                resp.setStatusCode(502).putHeader("Content-Type", "application/json")
                        .end(status(502, "BadGateway", "the API server could not be reached"));
            } else {
                req.connection().close();
            }
        });
    }

    private static boolean isHopByHop(String name) {
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "connection", "keep-alive", "transfer-encoding", "upgrade", "te", "trailer", "proxy-connection",
                 "host", "http2-settings" -> true;
            default -> false;
        };
    }

    private void onWebSocket(ServerWebSocketHandshake hs) {
        requests.incrementAndGet();
        String path = hs.path();
        MultiMap params = params(hs.query());
        if (partitioned()) {
            record("GET", path, true, false, 0, FaultClass.PARTITION);
            hs.reject(503);
            return;
        }
        FaultClass fault = decide(false, true, isResume(params));
        if (fault != null && fault != FaultClass.WATCH_DROPPED && fault != FaultClass.WATCH_GONE
                && fault != FaultClass.SLOW) {
            // Failures before the upgrade: the handshake is refused with the status (or after a hold).
            int code = switch (fault) {
                case TOO_MANY_REQUESTS -> 429;
                case INTERNAL_ERROR -> 500;
                case CONFLICT, UNAVAILABLE -> 503;
                default -> 0;
            };
            if (fault == FaultClass.TIMEOUT) {
                vertx.setTimer(plan.timing(FaultClass.TIMEOUT).toMillis(), t -> {
                    record("GET", path, true, false, 0, fault);
                    hs.reject(504);
                });
            } else {
                record("GET", path, true, false, code, fault);
                hs.reject(code == 0 ? 502 : code);
            }
            return;
        }
        if (fault == FaultClass.WATCH_GONE) {
            record("GET", path, true, false, 101, fault);
            hs.accept().onSuccess(ws -> ws.writeTextMessage(goneEvent()).eventually(ws::close));
            return;
        }
        long delay = fault == FaultClass.SLOW ? randomMillis(plan.timing(FaultClass.SLOW), 0.1) : 0;
        Promise<Void> waited = Promise.promise();
        if (delay > 0) {
            vertx.setTimer(delay, t -> waited.complete());
        } else {
            waited.complete();
        }
        waited.future().compose(v -> {
            if (partitioned()) {
                record("GET", path, true, false, 0, FaultClass.PARTITION);
                return hs.reject(503).compose(x -> Future.failedFuture("partitioned"));
            }
            WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(upstream.getHost())
                    .setPort(upstream.getPort()).setURI(hs.uri());
            hs.headers().forEach(h -> {
                if (h.getKey().equalsIgnoreCase("Authorization") || h.getKey().equalsIgnoreCase("Accept")
                        || h.getKey().equalsIgnoreCase("Sec-WebSocket-Protocol")) {
                    options.addHeader(h.getKey(), h.getValue());
                }
            });
            return wsClient.connect(options);
        }).onFailure(e -> {
            if (!"partitioned".equals(e.getMessage())) {
                record("GET", path, true, false, 502, null);
                hs.reject(502);
            }
        }).onSuccess(upstreamWs -> {
            // Events sent before the client's side is accepted wait instead of being lost.
            upstreamWs.pause();
            hs.accept().onFailure(e -> upstreamWs.close()).onSuccess(ws -> {
                record("GET", path, true, true, 101, fault);
                pipe(ws, upstreamWs, fault);
                upstreamWs.resume();
            });
        });
    }

    private void pipe(ServerWebSocket ws, WebSocket up, FaultClass fault) {
        Runnable cut = () -> {
            if (!up.isClosed()) {
                up.close();
            }
            if (!ws.isClosed()) {
                ws.close();
            }
        };
        openWatches.add(cut);
        up.textMessageHandler(m -> {
            if (!ws.isClosed()) {
                ws.writeTextMessage(m);
            }
        });
        up.binaryMessageHandler(m -> {
            if (!ws.isClosed()) {
                ws.writeBinaryMessage(m);
            }
        });
        ws.textMessageHandler(m -> {
            if (!up.isClosed()) {
                up.writeTextMessage(m);
            }
        });
        up.closeHandler(v -> {
            openWatches.remove(cut);
            cut.run();
        });
        ws.closeHandler(v -> {
            openWatches.remove(cut);
            cut.run();
        });
        if (fault == FaultClass.WATCH_DROPPED) {
            vertx.setTimer(randomMillis(plan.timing(FaultClass.WATCH_DROPPED), 0.05), t -> cut.run());
        }
    }

    private static MultiMap params(String query) {
        MultiMap q = MultiMap.caseInsensitiveMultiMap();
        if (query != null) {
            new io.netty.handler.codec.http.QueryStringDecoder(query, false).parameters().forEach(q::add);
        }
        return q;
    }

    /** Stops listening and closes the upstream clients. */
    public Future<Void> closeAsync() {
        List<Runnable> watches = new ArrayList<>(openWatches);
        watches.forEach(Runnable::run);
        Future<Void> s = server == null ? Future.succeededFuture() : server.close();
        return s.eventually(client::close).eventually(wsClient::close);
    }

    @Override
    public void close() {
        try {
            closeAsync().await(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.debug("fault proxy close: {}", e.toString());
        }
    }
}
