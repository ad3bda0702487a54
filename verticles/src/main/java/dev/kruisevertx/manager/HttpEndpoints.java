package dev.kruisevertx.manager;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The manager's HTTP listeners: metrics ({@code --metrics-addr}, default :8080) with {@code /metrics}, probes
 * ({@code --health-probe-addr}, default :8000) with {@code /healthz} and {@code /readyz}, as OpenKruise has them,
 * and the debug views ({@code --debug-addr}, default 127.0.0.1:8090). An address of "0" disables a listener.
 * With {@code --metrics-secure}, {@code /metrics} is served over HTTPS to authorized callers only.
 */
public final class HttpEndpoints {
    /** The bound ports, -1 for a disabled listener. */
    public record Ports(int metrics, int health, int debug) {
    }

    /** How /metrics is served: plain HTTP to anyone (OpenKruise's way), or HTTPS behind a review of the caller. */
    record MetricsSecurity(PemKeyCertOptions certificate, MetricsAccessReview access) {
        static final MetricsSecurity NONE = new MetricsSecurity(null, null);

        boolean secure() {
            return certificate != null;
        }
    }

    private final Vertx vertx;
    private final PrometheusMeterRegistry registry;
    private final HealthChecks liveness;
    private final HealthChecks readiness;
    private final DebugEndpoints debug;
    private final List<HttpServer> servers = new ArrayList<>();

    public HttpEndpoints(Vertx vertx, PrometheusMeterRegistry registry, HealthChecks liveness, HealthChecks readiness,
                         DebugEndpoints debug) {
        this.vertx = vertx;
        this.registry = registry;
        this.liveness = liveness;
        this.readiness = readiness;
        this.debug = debug;
    }

    /** Starts the listeners with /metrics over plain HTTP, as OpenKruise serves it. */
    public Future<Ports> start(ListenAddress metricsAddr, ListenAddress probeAddr, ListenAddress debugAddr) {
        return start(metricsAddr, probeAddr, debugAddr, MetricsSecurity.NONE);
    }

    /** Starts the listeners; fails with an error naming the flag when one cannot bind. */
    Future<Ports> start(ListenAddress metricsAddr, ListenAddress probeAddr, ListenAddress debugAddr,
                        MetricsSecurity security) {
        Router metrics = Router.router(vertx);
        if (security.access() != null) {
            metrics.get("/metrics").handler(security.access());
        }
        // A scrape walks every series (thousands with many controllers and addresses): keep it off the event loop.
        metrics.get("/metrics").handler(ctx -> vertx.executeBlocking(registry::scrape, false)
                .onSuccess(text -> ctx.response()
                        .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8").end(text))
                .onFailure(ctx::fail));
        // kubectl kruise why reaches this through the API server's service proxy: the listener a Service exposes.
        if (security.access() != null) {
            metrics.get("/why/*").handler(security.access());
        }
        metrics.get("/why/*").handler(debug::why);

        Router probes = Router.router(vertx);
        probes.get("/healthz").handler(ctx -> health(ctx, liveness));
        probes.get("/healthz/*").handler(ctx -> health(ctx, liveness, "/healthz/"));
        probes.get("/readyz").handler(ctx -> health(ctx, readiness));
        probes.get("/readyz/*").handler(ctx -> health(ctx, readiness, "/readyz/"));

        HttpServerOptions metricsOptions = security.secure()
                ? new HttpServerOptions().setSsl(true).setKeyCertOptions(security.certificate()) : new HttpServerOptions();
        return Future.all(listen(metrics, metricsAddr, metricsOptions), listen(probes, probeAddr, new HttpServerOptions()),
                        listen(debug.router(), debugAddr, new HttpServerOptions()))
                .map(all -> new Ports(all.<Integer>resultAt(0), all.<Integer>resultAt(1), all.<Integer>resultAt(2)));
    }

    private Future<Integer> listen(Router router, ListenAddress address, HttpServerOptions options) {
        if (address.disabled()) {
            return Future.succeededFuture(-1);
        }
        return vertx.createHttpServer(options).requestHandler(router).listen(address.port(), address.host())
                .recover(e -> Future.failedFuture(address.bindFailure(e)))
                .onSuccess(servers::add)
                .map(HttpServer::actualPort);
    }

    private static void health(RoutingContext ctx, HealthChecks checks) {
        answer(ctx, checks.evaluate(ctx.queryParams().contains("verbose"), Set.copyOf(ctx.queryParams().getAll("exclude"))));
    }

    /** {@code /readyz/NAME}: that one check; {@code /readyz/} is the whole set, as controller-runtime cleans paths. */
    private static void health(RoutingContext ctx, HealthChecks checks, String prefix) {
        String name = ctx.normalizedPath().substring(prefix.length());
        if (name.isEmpty()) {
            health(ctx, checks);
            return;
        }
        checks.evaluateOne(name).ifPresentOrElse(report -> answer(ctx, report),
                () -> ctx.response().setStatusCode(404).putHeader("Content-Type", "text/plain; charset=utf-8")
                        .end("404 page not found\n"));
    }

    private static void answer(RoutingContext ctx, HealthChecks.Report report) {
        ctx.response().setStatusCode(report.healthy() ? 200 : 500)
                .putHeader("Content-Type", "text/plain; charset=utf-8")
                .putHeader("X-Content-Type-Options", "nosniff")
                .end(report.body());
    }

    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        servers.forEach(s -> closing.add(s.close()));
        return Future.all(closing).<Void>mapEmpty().eventually(() -> {
            debug.close();
            return Future.succeededFuture();
        });
    }
}
