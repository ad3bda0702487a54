package dev.kruisevertx.webhook.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.cli.ListenError;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.AdmissionReviews;
import dev.kruisevertx.webhook.admission.BadReview;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ReviewSize;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The HTTPS endpoint of every webhook: admission paths from the {@link AdmissionRegistry}, {@code /convert}
 * and {@code /healthz}. Runs on every replica. A renewed certificate is swapped in with
 * {@link #updateCertificates(CertBundle)}: new connections get it, open ones finish on the old one.
 * <p>
 * Hostile or broken clients are bounded by {@link ServerLimits}: body size (413, connection closed), header, body
 * and idle timeouts and a connection cap ({@link ConnectionGuard}), and large bodies judged on a worker within a
 * byte budget ({@link LargeRequests}), so one huge object neither stalls small admissions nor exhausts the heap.
 * TLS follows {@link TlsPolicy}.
 */
public final class WebhookServerVerticle extends VerticleBase {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookServerVerticle.class);
    public static final String HEALTHZ = "/healthz";
    public static final String CONVERT = "/convert";
    private static final String JSON = "application/json";
    /** How long one event-loop turn may spend writing (encrypting) the pieces of a large answer. */
    private static final long WRITE_TURN_NANOS = TimeUnit.MILLISECONDS.toNanos(4);

    private final String bindHost;
    private final int port;
    private final ServerLimits limits;
    private final AdmissionRegistry admission;
    private final ConversionRegistry conversion;
    private final WebhookMetrics metrics;
    private volatile CertBundle certificates;
    private HttpServer server;
    private ConnectionGuard guard;
    private LargeRequests large;

    public WebhookServerVerticle(String bindHost, int port, long maxBodyBytes, AdmissionRegistry admission,
                                 ConversionRegistry conversion, WebhookMetrics metrics, CertBundle initial) {
        this(bindHost, port, ServerLimits.defaults().withMaxBodyBytes(maxBodyBytes), admission, conversion, metrics,
                initial);
    }

    public WebhookServerVerticle(String bindHost, int port, ServerLimits limits, AdmissionRegistry admission,
                                 ConversionRegistry conversion, WebhookMetrics metrics, CertBundle initial) {
        this.bindHost = bindHost;
        this.port = port;
        this.limits = Objects.requireNonNull(limits, "limits");
        this.admission = admission;
        this.conversion = conversion;
        this.metrics = metrics;
        this.certificates = Objects.requireNonNull(initial, "initial certificates");
    }

    @Override
    public Future<?> start() {
        guard = new ConnectionGuard(vertx, limits, metrics);
        large = new LargeRequests(vertx, limits, metrics, this::pathLabel);
        Router router = Router.router(vertx);
        router.route().failureHandler(this::failed);
        router.route().handler(guard::requestStarted);
        router.get(HEALTHZ).handler(ctx -> ctx.response().putHeader("content-type", "text/plain").end("ok"));
        router.post().handler(this::jsonOnly);
        router.route().handler(large::admit);
        router.route().handler(BodyHandler.create(false).setBodyLimit(limits.maxBodyBytes()));
        router.route().handler(guard::bodyReceived);
        router.post(CONVERT).handler(this::convert);
        router.post().handler(this::admit);
        router.route().handler(ctx -> Responses.plain(ctx, 405, "method " + ctx.request().method()
                + " not allowed on " + ctx.normalizedPath() + ": webhooks accept POST"));
        HttpServerOptions options = TlsPolicy.apply(new HttpServerOptions()
                .setHost(bindHost)
                .setPort(port)
                .setKeyCertOptions(keyCert(certificates))
                // A backstop under the guard's timers: no byte either way for this long closes the connection.
                .setIdleTimeout((int) limits.idleTimeout().toSeconds() + 10)
                .setIdleTimeoutUnit(TimeUnit.SECONDS));
        // Model (de)serializers are built on a worker first: the first pod would otherwise stall the event loop.
        return vertx.executeBlocking(() -> {
            Json.warmUp();
            return null;
        }).compose(v -> vertx.createHttpServer(options)
                .connectionHandler(guard::connected)
                .requestHandler(router)
                .listen()
                .recover(e -> Future.failedFuture(ListenError.explain("WEBHOOK_PORT " + port
                        + " (the webhook's HTTPS listener on " + bindHost + ":" + port + ")", e)))).onSuccess(s -> {
            server = s;
            LOG.info("Webhook server listening on https://{}:{}", bindHost, s.actualPort());
        });
    }

    @Override
    public Future<?> stop() {
        Future<Void> closed = server == null ? Future.succeededFuture() : server.close();
        return large == null ? closed : closed.eventually(() -> large.close());
    }

    /** The bound port (useful when configured with port 0). */
    public int actualPort() {
        return server == null ? -1 : server.actualPort();
    }

    public CertBundle currentCertificates() {
        return certificates;
    }

    /**
     * Serves {@code bundle} to new connections. Completes with whether anything changed; the server keeps
     * running (and serving the previous certificate) if the update is refused.
     */
    public Future<Boolean> updateCertificates(CertBundle bundle) {
        if (bundle.sameAs(certificates)) {
            return Future.succeededFuture(false);
        }
        if (server == null) {
            certificates = bundle;
            return Future.succeededFuture(true);
        }
        // The new options replace the old ones whole, so they carry the TLS policy too.
        return server.updateSSLOptions(TlsPolicy.sslOptions(keyCert(bundle)))
                .onSuccess(changed -> {
                    certificates = bundle;
                    LOG.info("Webhook server now serves the renewed certificate");
                });
    }

    private static PemKeyCertOptions keyCert(CertBundle bundle) {
        return new PemKeyCertOptions()
                .setCertValue(Buffer.buffer(bundle.certPem()))
                .setKeyValue(Buffer.buffer(bundle.keyPem()));
    }

    /**
     * Refuses a body that says it is not JSON (kube-apiserver always sends {@code application/json}, as
     * controller-runtime's webhook server requires) before it is read: form and multipart bodies would otherwise go
     * through Vert.x's form decoder. A body without a Content-Type is read as JSON.
     */
    private void jsonOnly(RoutingContext ctx) {
        String type = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
        if (type == null || "application/json".equalsIgnoreCase(type.split(";", 2)[0].trim())) {
            ctx.next();
            return;
        }
        metrics.record(pathLabel(ctx.normalizedPath()), WebhookMetrics.BAD_REQUEST, 0);
        String shown = type.length() > 64 ? type.substring(0, 64) + "..." : type;
        String message = "content type '" + shown + "' is not supported: send application/json";
        HttpServerRequest request = ctx.request();
        long declared = declaredLength(request);
        if (declared < 0 || declared > DRAIN_BEFORE_REFUSING || request.isEnded()) {
            Responses.plainAndClose(ctx, 415, message);
            return;
        }
        // A client still sending a small body would meet a reset instead of the answer if the connection closed now:
        // read it to the end (discarding every chunk, so it costs no memory) and answer then.
        request.handler(chunk -> { });
        request.exceptionHandler(e -> request.connection().close());
        request.endHandler(v -> Responses.plainAndClose(ctx, 415, message));
        request.resume();
    }

    /** Bodies up to this size are read (and discarded) before a refusal, so the client reads the answer. */
    private static final long DRAIN_BEFORE_REFUSING = 1024 * 1024;

    private static long declaredLength(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length == null) {
            return -1;
        }
        try {
            return Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The metrics label of a path: registered paths as they are, anything else {@code unknown}. */
    private String pathLabel(String path) {
        return CONVERT.equals(path) || admission.find(path).isPresent() ? path : "unknown";
    }

    /** What to send back: status, body (in pieces) and the metrics result. */
    private record Answer(int status, String contentType, List<Buffer> body, long length, String result) {
        static Answer plain(int status, String message, String result) {
            Buffer text = Buffer.buffer(message + "\n");
            return new Answer(status, "text/plain; charset=utf-8", List.of(text), text.length(), result);
        }

        static Answer json(BufferOutputStream out, String result) {
            return new Answer(200, JSON, out.chunks(), out.length(), result);
        }
    }

    private void admit(RoutingContext ctx) {
        long start = System.nanoTime();
        String path = ctx.normalizedPath();
        AdmissionHandler handler = admission.find(path).orElse(null);
        if (handler == null) {
            metrics.record("unknown", WebhookMetrics.NOT_FOUND, System.nanoTime() - start);
            Responses.plain(ctx, 404, "no webhook is registered for path " + path);
            return;
        }
        Buffer body = ctx.body().buffer();
        Future<Answer> answer = body != null && large.isLarge(body.length())
                ? large.run(() -> {
                    byte[] bytes = body.getBytes();
                    return tooManyValues(bytes).map(Future::succeededFuture).orElseGet(() -> admission(handler, path, bytes));
                })
                : admission(handler, path, body == null ? null : body.getBytes());
        answer.onComplete(done -> send(ctx, path, start, done.succeeded() ? done.result() : internalError(path, done.cause())));
    }

    /**
     * Refuses a large body whose JSON values would take more heap to judge than the limit allows: counted by
     * streaming over the bytes, before any tree is built. An AdmissionReview gets a denial (code 413) the API server
     * shows its user; anything else a plain 413.
     */
    private Optional<Answer> tooManyValues(byte[] body) {
        ReviewSize size = ReviewSize.measure(body, limits.maxJsonValues());
        if (size.values() <= limits.maxJsonValues()) {
            return Optional.empty();
        }
        String message = String.format("the request holds more than %,d JSON values, the most this webhook judges at "
                        + "once (it needs about %d bytes of heap per value while judging)", limits.maxJsonValues(),
                ServerLimits.HEAP_BYTES_PER_VALUE);
        LOG.info("Refusing a request of {} bytes: more than {} JSON values", body.length, limits.maxJsonValues());
        if (size.uid() != null && (AdmissionReviews.V1.equals(size.apiVersion())
                || AdmissionReviews.V1BETA1.equals(size.apiVersion()))) {
            BufferOutputStream out = new BufferOutputStream();
            try {
                AdmissionReviews.write(out, size.apiVersion(), size.uid(), AdmissionResponse.errored(413, message));
            } catch (IOException e) {
                throw new IllegalStateException("cannot encode the AdmissionReview response", e);
            }
            return Optional.of(Answer.json(out, WebhookMetrics.TOO_LARGE));
        }
        return Optional.of(Answer.plain(413, message, WebhookMetrics.TOO_LARGE));
    }

    /**
     * Parses, judges and encodes one review. Runs where it is called: on the event loop for small bodies, on a
     * large-request worker for large ones (a handler completing synchronously then never touches the event loop).
     */
    private Future<Answer> admission(AdmissionHandler handler, String path, byte[] body) {
        AdmissionRequest request;
        try {
            request = AdmissionReviews.parse(body);
        } catch (BadReview e) {
            if (!e.answerable()) {
                return Future.succeededFuture(Answer.plain(400, e.getMessage(), WebhookMetrics.BAD_REQUEST));
            }
            // kube-apiserver shows a denial's message to its user; a plain 400 would only be "failed calling webhook".
            return Future.succeededFuture(review(e.apiVersion(), e.uid(), AdmissionResponse.errored(400, e.getMessage()),
                    WebhookMetrics.BAD_REQUEST));
        }
        String apiVersion = request.reviewApiVersion();
        String uid = request.uid();
        String operation = request.operation();
        String name = request.name();
        Future<AdmissionResponse> decision;
        try {
            decision = Objects.requireNonNull(handler.handle(request), "handler returned no result");
        } catch (RuntimeException e) {
            decision = Future.failedFuture(e);
        }
        // From here on only the uid and version are needed: the request's object trees (megabytes for a large
        // object) can be collected while the answer is encoded.
        request = null;
        return decision.recover(e -> {
            LOG.warn("Admission handler for {} failed on {} {}", path, operation, name, e);
            return Future.succeededFuture(AdmissionResponse.errored(500, "webhook " + path + " failed: " + e.getMessage()));
        }).map(response -> {
            String result = !response.allowed() ? (response.code() >= 500 || response.code() == 400
                    ? WebhookMetrics.ERROR : WebhookMetrics.DENIED)
                    : response.hasPatch() ? WebhookMetrics.PATCHED : WebhookMetrics.ALLOWED;
            return review(apiVersion, uid, response, result);
        });
    }

    private static Answer review(String apiVersion, String uid, AdmissionResponse response, String result) {
        BufferOutputStream out = new BufferOutputStream();
        try {
            AdmissionReviews.write(out, apiVersion, uid, response);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode the AdmissionReview response", e);
        }
        return Answer.json(out, result);
    }

    private void convert(RoutingContext ctx) {
        long start = System.nanoTime();
        Buffer body = ctx.body().buffer();
        Future<Answer> answer = body != null && large.isLarge(body.length())
                ? large.run(() -> {
                    byte[] bytes = body.getBytes();
                    return Future.succeededFuture(tooManyValues(bytes).orElseGet(() -> conversion(bytes)));
                })
                : Future.succeededFuture(conversion(body == null ? null : body.getBytes()));
        answer.onComplete(done -> send(ctx, CONVERT, start, done.succeeded() ? done.result() : internalError(CONVERT, done.cause())));
    }

    private Answer conversion(byte[] body) {
        try {
            ObjectNode review = conversion.review(body);
            boolean ok = "Success".equals(review.path("response").path("result").path("status").asText());
            BufferOutputStream out = new BufferOutputStream();
            Json.MAPPER.writeValue(out, review);
            return Answer.json(out, ok ? WebhookMetrics.CONVERTED : WebhookMetrics.CONVERSION_FAILED);
        } catch (IllegalArgumentException e) {
            return Answer.plain(400, e.getMessage(), WebhookMetrics.BAD_REQUEST);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode the ConversionReview response", e);
        }
    }

    private Answer internalError(String path, Throwable failure) {
        LOG.error("Webhook request on {} failed", path, failure);
        return Answer.plain(500, "internal error: " + failure.getMessage(), WebhookMetrics.ERROR);
    }

    private void send(RoutingContext ctx, String path, long start, Answer answer) {
        metrics.record(path, answer.result(), System.nanoTime() - start);
        if (ctx.response().ended() || ctx.response().closed()) {
            LOG.debug("Not answering {} {}: the client is gone or was already answered", ctx.request().method(), path);
            return;
        }
        HttpServerResponse response = ctx.response().setStatusCode(answer.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, answer.contentType());
        if (answer.body().size() == 1) {
            response.end(answer.body().get(0));
            return;
        }
        // A patch can be tens of megabytes, and TLS encrypts what is written right there, on the event loop: one
        // write of 20 MB held it for seconds. A few milliseconds of pieces per timer tick let other connections'
        // requests in between.
        response.putHeader(HttpHeaders.CONTENT_LENGTH, String.valueOf(answer.length()));
        writePieces(response, answer.body().iterator());
    }

    private void writePieces(HttpServerResponse response, Iterator<Buffer> pieces) {
        long start = System.nanoTime();
        while (pieces.hasNext()) {
            if (response.closed()) {
                return;
            }
            if (response.writeQueueFull()) {
                response.drainHandler(v -> writePieces(response, pieces));
                return;
            }
            response.write(pieces.next());
            if (System.nanoTime() - start > WRITE_TURN_NANOS && pieces.hasNext()) {
                vertx.setTimer(1, tick -> writePieces(response, pieces));
                return;
            }
        }
        response.end();
    }

    /**
     * Failures of the routing itself: a body over the limit, a malformed request, a client that went away (the body
     * handler reports that with status 200), an unexpected exception.
     */
    private void failed(RoutingContext ctx) {
        Throwable failure = ctx.failure();
        int code = ctx.statusCode();
        if (ctx.response().ended()) {
            return;
        }
        if (failure instanceof HttpClosedException || ctx.response().closed()) {
            // Routine: one line, no stack trace.
            LOG.debug("Client {} closed the connection during {} {}", ctx.request().remoteAddress(),
                    ctx.request().method(), ctx.normalizedPath());
            return;
        }
        if (code == 413) {
            metrics.record(pathLabel(ctx.normalizedPath()), WebhookMetrics.TOO_LARGE, 0);
            Responses.plainAndClose(ctx, 413, "request body exceeds the limit of " + limits.maxBodyBytes() + " bytes");
            return;
        }
        if (code >= 400 && code < 500) {
            LOG.debug("Bad request {} {}: {}", ctx.request().method(), ctx.normalizedPath(), String.valueOf(failure));
            Responses.plainAndClose(ctx, code, "bad request" + (failure == null ? "" : ": " + failure.getMessage()));
            return;
        }
        LOG.error("Webhook request failed on {}", ctx.normalizedPath(), failure);
        Responses.plain(ctx, 500, "internal error: " + (failure == null ? "unknown" : failure.getMessage()));
    }

    /** Open connections (tests). */
    int openConnections() {
        return guard == null ? 0 : guard.openConnections();
    }

    /** Bytes of large requests in flight (tests). */
    long largeBytesInFlight() {
        return large == null ? 0 : large.reservedBytes();
    }
}
