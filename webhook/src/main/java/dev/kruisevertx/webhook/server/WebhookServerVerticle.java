package dev.kruisevertx.webhook.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.cli.ListenError;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.AdmissionReviews;
import dev.kruisevertx.webhook.admission.BadAdmissionReview;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.ServerSSLOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Objects;

/**
 * The HTTPS endpoint of every webhook: admission paths from the {@link AdmissionRegistry}, {@code /convert}
 * and {@code /healthz}. Runs on every replica. A renewed certificate is swapped in with
 * {@link #updateCertificates(CertBundle)}: new connections get it, open ones finish on the old one.
 */
public final class WebhookServerVerticle extends VerticleBase {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookServerVerticle.class);
    public static final String HEALTHZ = "/healthz";
    public static final String CONVERT = "/convert";
    private static final String JSON = "application/json";

    private final String bindHost;
    private final int port;
    private final long maxBodyBytes;
    private final AdmissionRegistry admission;
    private final ConversionRegistry conversion;
    private final WebhookMetrics metrics;
    private volatile CertBundle certificates;
    private HttpServer server;

    public WebhookServerVerticle(String bindHost, int port, long maxBodyBytes, AdmissionRegistry admission,
                                 ConversionRegistry conversion, WebhookMetrics metrics, CertBundle initial) {
        this.bindHost = bindHost;
        this.port = port;
        this.maxBodyBytes = maxBodyBytes;
        this.admission = admission;
        this.conversion = conversion;
        this.metrics = metrics;
        this.certificates = Objects.requireNonNull(initial, "initial certificates");
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        router.get(HEALTHZ).handler(ctx -> ctx.response().putHeader("content-type", "text/plain").end("ok"));
        router.route().handler(BodyHandler.create(false).setBodyLimit(maxBodyBytes));
        router.post(CONVERT).handler(this::convert);
        router.post().handler(this::admit);
        router.route().handler(ctx -> plain(ctx, 405, "method " + ctx.request().method()
                + " not allowed on " + ctx.normalizedPath() + ": webhooks accept POST"));
        router.errorHandler(413, ctx -> plain(ctx, 413, "request body exceeds the limit of " + maxBodyBytes + " bytes"));
        router.errorHandler(500, ctx -> {
            LOG.error("Webhook request failed on {}", ctx.normalizedPath(), ctx.failure());
            plain(ctx, 500, "internal error: " + (ctx.failure() == null ? "unknown" : ctx.failure().getMessage()));
        });
        HttpServerOptions options = new HttpServerOptions()
                .setHost(bindHost)
                .setPort(port)
                .setSsl(true)
                .setKeyCertOptions(keyCert(certificates));
        // Model (de)serializers are built on a worker first: the first pod would otherwise stall the event loop.
        return vertx.executeBlocking(() -> {
            Json.warmUp();
            return null;
        }).compose(v -> vertx.createHttpServer(options).requestHandler(router).listen()
                .recover(e -> Future.failedFuture(ListenError.explain("WEBHOOK_PORT " + port
                        + " (the webhook's HTTPS listener on " + bindHost + ":" + port + ")", e)))).onSuccess(s -> {
            server = s;
            LOG.info("Webhook server listening on https://{}:{}", bindHost, s.actualPort());
        });
    }

    @Override
    public Future<?> stop() {
        return server == null ? Future.succeededFuture() : server.close();
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
        return server.updateSSLOptions(new ServerSSLOptions().setKeyCertOptions(keyCert(bundle)))
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

    private void admit(RoutingContext ctx) {
        long start = System.nanoTime();
        String path = ctx.normalizedPath();
        AdmissionHandler handler = admission.find(path).orElse(null);
        if (handler == null) {
            metrics.record("unknown", WebhookMetrics.NOT_FOUND, System.nanoTime() - start);
            plain(ctx, 404, "no webhook is registered for path " + path);
            return;
        }
        AdmissionRequest request;
        try {
            request = AdmissionReviews.parse(ctx.body().buffer() == null ? null : ctx.body().buffer().getBytes());
        } catch (BadAdmissionReview e) {
            metrics.record(path, WebhookMetrics.BAD_REQUEST, System.nanoTime() - start);
            plain(ctx, 400, e.getMessage());
            return;
        }
        Future<AdmissionResponse> decision;
        try {
            decision = Objects.requireNonNull(handler.handle(request), "handler returned no result");
        } catch (RuntimeException e) {
            decision = Future.failedFuture(e);
        }
        decision.recover(e -> {
            LOG.warn("Admission handler for {} failed on {} {}", path, request.operation(), request.name(), e);
            return Future.succeededFuture(AdmissionResponse.errored(500, "webhook " + path + " failed: " + e.getMessage()));
        }).onSuccess(response -> {
            String result = !response.allowed() ? (response.code() >= 500 || response.code() == 400
                    ? WebhookMetrics.ERROR : WebhookMetrics.DENIED)
                    : response.hasPatch() ? WebhookMetrics.PATCHED : WebhookMetrics.ALLOWED;
            metrics.record(path, result, System.nanoTime() - start);
            ctx.response().putHeader("content-type", JSON).end(Buffer.buffer(AdmissionReviews.encode(request, response)));
        });
    }

    private void convert(RoutingContext ctx) {
        long start = System.nanoTime();
        JsonNode root;
        try {
            Buffer body = ctx.body().buffer();
            if (body == null || body.length() == 0) {
                throw new IllegalArgumentException("request body is empty: expected a ConversionReview");
            }
            try {
                root = Json.MAPPER.readTree(body.getBytes());
            } catch (IOException e) {
                throw new IllegalArgumentException("request body is not valid JSON: " + firstLine(e.getMessage()));
            }
            ObjectNode review = conversion.review(root);
            boolean ok = "Success".equals(review.path("response").path("result").path("status").asText());
            metrics.record(CONVERT, ok ? WebhookMetrics.CONVERTED : WebhookMetrics.CONVERSION_FAILED,
                    System.nanoTime() - start);
            ctx.response().putHeader("content-type", JSON).end(Buffer.buffer(Json.MAPPER.writeValueAsBytes(review)));
        } catch (IllegalArgumentException e) {
            metrics.record(CONVERT, WebhookMetrics.BAD_REQUEST, System.nanoTime() - start);
            plain(ctx, 400, e.getMessage());
        } catch (IOException e) {
            ctx.fail(e);
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static void plain(RoutingContext ctx, int status, String message) {
        if (ctx.response().ended()) {
            return;
        }
        ctx.response().setStatusCode(status).putHeader("content-type", "text/plain; charset=utf-8").end(message + "\n");
    }
}
