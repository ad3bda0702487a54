package dev.kruisevertx.manager;

import dev.kruisevertx.bus.EventBusMetrics;
import dev.kruisevertx.controller.PlanRecorder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The manager's two HTTP listeners, as OpenKruise has them: metrics ({@code --metrics-addr}, default :8080) with
 * {@code /metrics} and the debug views, and probes ({@code --health-probe-addr}, default :8000) with
 * {@code /healthz} and {@code /readyz}. An address of "0" disables the listener.
 */
public final class HttpEndpoints {
    private final Vertx vertx;
    private final PrometheusMeterRegistry registry;
    private final HealthChecks liveness;
    private final HealthChecks readiness;
    private final EventBusMetrics eventBusMetrics;
    private final PlanRecorder plans;
    private final Supplier<Object> controllersView;
    private final List<HttpServer> servers = new ArrayList<>();

    public HttpEndpoints(Vertx vertx, PrometheusMeterRegistry registry, HealthChecks liveness, HealthChecks readiness,
                         EventBusMetrics eventBusMetrics, PlanRecorder plans, Supplier<Object> controllersView) {
        this.vertx = vertx;
        this.registry = registry;
        this.liveness = liveness;
        this.readiness = readiness;
        this.eventBusMetrics = eventBusMetrics;
        this.plans = plans;
        this.controllersView = controllersView;
    }

    /** Starts both listeners; completes with the bound ports (-1 for a disabled one). */
    public Future<int[]> start(ListenAddress metricsAddr, ListenAddress probeAddr) {
        Router metrics = Router.router(vertx);
        // A scrape walks every series (thousands with many controllers and addresses): keep it off the event loop.
        metrics.get("/metrics").handler(ctx -> vertx.executeBlocking(registry::scrape, false)
                .onSuccess(text -> ctx.response()
                        .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8").end(text))
                .onFailure(ctx::fail));
        metrics.get("/debug/eventbus").handler(ctx -> json(ctx, eventBusMetrics.snapshot()));
        metrics.get("/debug/controllers").handler(ctx -> json(ctx, controllersView.get()));
        metrics.get("/debug/plans").handler(ctx -> json(ctx, plans.snapshot(ctx.queryParams().get("controller"))));

        Router probes = Router.router(vertx);
        probes.get("/healthz").handler(ctx -> health(ctx, liveness));
        probes.get("/healthz/*").handler(ctx -> health(ctx, liveness, "/healthz/"));
        probes.get("/readyz").handler(ctx -> health(ctx, readiness));
        probes.get("/readyz/*").handler(ctx -> health(ctx, readiness, "/readyz/"));

        return Future.all(listen(metrics, metricsAddr), listen(probes, probeAddr))
                .map(all -> new int[]{all.<Integer>resultAt(0), all.<Integer>resultAt(1)});
    }

    private Future<Integer> listen(Router router, ListenAddress address) {
        if (address.disabled()) {
            return Future.succeededFuture(-1);
        }
        return vertx.createHttpServer().requestHandler(router).listen(address.port(), address.host())
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

    private static void json(RoutingContext ctx, Object value) {
        // Serialization happens on the event loop but only over small in-memory views (no API calls).
        ctx.response().putHeader("Content-Type", "application/json").end(Serialization.asJson(value instanceof Map<?, ?> m ? m : value));
    }

    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        servers.forEach(s -> closing.add(s.close()));
        return Future.all(closing).mapEmpty();
    }
}
