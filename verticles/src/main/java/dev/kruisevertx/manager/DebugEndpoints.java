package dev.kruisevertx.manager;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.bus.EventBusMetrics;
import dev.kruisevertx.controller.PlanRecorder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The debug views, served on their own listener ({@code --debug-addr}, loopback by default, as OpenKruise's chart
 * binds pprof): {@code /debug/eventbus}, {@code /debug/controllers} and {@code /debug/plans}. They show names,
 * revisions, counts and reasons only (see {@link dev.kruisevertx.controller.PlanSummary}).
 *
 * <p>Every answer is built and serialized on a small worker pool of its own, never on an event loop, and plans are
 * paged ({@code ?limit=&continue=}, as the API server pages lists): with 100k objects, concurrent calls queue
 * on that pool while probes and webhooks keep their event loops.
 */
public final class DebugEndpoints implements AutoCloseable {
    /** The NAMESPACE of {@code /why/CONTROLLER/NAMESPACE/NAME} for a cluster-scoped object. */
    public static final String CLUSTER_SCOPED = "-";

    static final int DEFAULT_LIMIT = 500;
    static final int MAX_LIMIT = 5000;
    private static final int RENDER_THREADS = 2;

    private final Vertx vertx;
    private final EventBusMetrics eventBus;
    private final PlanRecorder plans;
    private final Supplier<?> controllers;
    private final WorkerExecutor render;
    private final ObjectMapper json = Serialization.jsonMapper();
    private final BooleanSupplier leading;

    public DebugEndpoints(Vertx vertx, EventBusMetrics eventBus, PlanRecorder plans, Supplier<?> controllers) {
        this(vertx, eventBus, plans, controllers, () -> true);
    }

    /** {@code leading}: whether this replica runs the controllers now (only the leader has plans to show). */
    public DebugEndpoints(Vertx vertx, EventBusMetrics eventBus, PlanRecorder plans, Supplier<?> controllers,
                          BooleanSupplier leading) {
        this.leading = leading;
        this.vertx = vertx;
        this.eventBus = eventBus;
        this.plans = plans;
        this.controllers = controllers;
        this.render = vertx.createSharedWorkerExecutor("kruise-debug-render", RENDER_THREADS);
    }

    public Router router() {
        Router router = Router.router(vertx);
        router.get("/debug/eventbus").handler(ctx -> answer(ctx, eventBus::snapshot));
        router.get("/debug/controllers").handler(ctx -> answer(ctx, controllers::get));
        router.get("/debug/plans").handler(this::plans);
        return router;
    }

    private void plans(RoutingContext ctx) {
        String controller = ctx.queryParams().get("controller");
        String token = ctx.queryParams().get("continue");
        int limit;
        try {
            limit = limit(ctx.queryParams().get("limit"));
        } catch (IllegalArgumentException e) {
            badRequest(ctx, e.getMessage());
            return;
        }
        String format = ctx.queryParams().get("format");
        if (format != null && !format.equals("json") && !format.equals("text")) {
            badRequest(ctx, "format must be json or text, got \"" + format + "\"");
            return;
        }
        Callable<PlanRecorder.Page> page = () -> plans.page(controller == null || controller.isEmpty() ? null
                : controller, token == null || token.isEmpty() ? null : token, limit);
        if ("text".equals(format)) {
            answerText(ctx, () -> PlanViews.text(page.call()));
        } else {
            answer(ctx, () -> view(page.call()));
        }
    }

    /**
     * {@code /why/CONTROLLER/NAMESPACE/NAME}: the last decision about one object with the reasons that held it, for
     * {@code kubectl kruise why}; NAMESPACE {@code -} names a cluster-scoped object (no namespace can be called
     * so), e.g. {@code /why/sidecarset/-/log-shipper}. Served on the metrics listener (reachable through the API server's service proxy,
     * guarded like /metrics with --metrics-secure); names, counts and reasons only. A standby answers 503: only the
     * leader decides, so the caller asks again and the Service sends it elsewhere.
     */
    public void why(RoutingContext ctx) {
        String[] parts = ctx.normalizedPath().substring("/why/".length()).split("/");
        if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
            badRequest(ctx, "expected /why/CONTROLLER/NAMESPACE/NAME, e.g. /why/cloneset/default/web");
            return;
        }
        if (!leading.getAsBoolean()) {
            ctx.response().setStatusCode(503).putHeader("Content-Type", "application/json")
                    .end("{\"leader\":false,\"message\":\"this replica is not the leader; only the leader decides\"}");
            return;
        }
        dev.kruisevertx.controller.Request request = new dev.kruisevertx.controller.Request(
                parts[1].equals(CLUSTER_SCOPED) ? "" : parts[1], parts[2]);
        PlanRecorder.Entry entry = plans.last(parts[0], request);
        if (entry == null) {
            ctx.response().setStatusCode(404).putHeader("Content-Type", "application/json")
                    .end(new io.vertx.core.json.JsonObject().put("leader", true).put("message",
                            "no decision recorded by controller " + parts[0] + " for " + request.key()
                                    + " (not reconciled yet, or no such object)").encode());
            return;
        }
        answer(ctx, () -> {
            Map<String, Object> m = PlanViews.item(new PlanRecorder.Item(parts[0], request.key(), entry));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("leader", true);
            out.putAll(m);
            return out;
        });
    }

    static int limit(String text) {
        if (text == null || text.isEmpty()) {
            return DEFAULT_LIMIT;
        }
        int limit;
        try {
            limit = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("limit must be a number, got \"" + text + "\"");
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        return Math.min(limit, MAX_LIMIT);
    }

    private static Map<String, Object> view(PlanRecorder.Page page) {
        List<Map<String, Object>> items = new ArrayList<>(page.items().size());
        for (PlanRecorder.Item item : page.items()) {
            items.add(PlanViews.item(item));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("items", items);
        if (page.continueToken() != null) {
            out.put("continue", page.continueToken());
        }
        return out;
    }

    /** Builds the view and its JSON on the render pool; a bad continue token is the caller's error (400). */
    private void answer(RoutingContext ctx, Callable<Object> view) {
        Future<Buffer> body = render.executeBlocking(() -> {
            try {
                return Buffer.buffer(json.writeValueAsBytes(view.call()));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("cannot serialize the debug view: " + e.getOriginalMessage(), e);
            }
        }, false);
        body.onSuccess(b -> ctx.response().putHeader("Content-Type", "application/json").end(b))
                .onFailure(e -> {
                    if (e instanceof IllegalArgumentException) {
                        badRequest(ctx, e.getMessage());
                    } else {
                        ctx.fail(e);
                    }
                });
    }

    /** Builds a text view on the render pool. */
    private void answerText(RoutingContext ctx, Callable<String> view) {
        render.executeBlocking(view::call, false)
                .onSuccess(text -> ctx.response().putHeader("Content-Type", "text/plain; charset=utf-8").end(text))
                .onFailure(e -> {
                    if (e instanceof IllegalArgumentException) {
                        badRequest(ctx, e.getMessage());
                    } else {
                        ctx.fail(e);
                    }
                });
    }

    private static void badRequest(RoutingContext ctx, String message) {
        ctx.response().setStatusCode(400).putHeader("Content-Type", "text/plain; charset=utf-8").end(message + "\n");
    }

    @Override
    public void close() {
        render.close();
    }
}
