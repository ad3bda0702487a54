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
    static final int DEFAULT_LIMIT = 500;
    static final int MAX_LIMIT = 5000;
    private static final int RENDER_THREADS = 2;

    private final Vertx vertx;
    private final EventBusMetrics eventBus;
    private final PlanRecorder plans;
    private final Supplier<?> controllers;
    private final WorkerExecutor render;
    private final ObjectMapper json = Serialization.jsonMapper();

    public DebugEndpoints(Vertx vertx, EventBusMetrics eventBus, PlanRecorder plans, Supplier<?> controllers) {
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
        answer(ctx, () -> view(plans.page(controller == null || controller.isEmpty() ? null : controller,
                token == null || token.isEmpty() ? null : token, limit)));
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
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("controller", item.controller());
            m.put("object", item.key());
            m.put("at", item.entry().at().toString());
            if (item.entry().reconcileId() > 0) {
                m.put("reconcileId", item.entry().reconcileId());
                m.put("trigger", item.entry().trigger());
            }
            m.put("summary", item.entry().plan().summary());
            if (!item.entry().plan().counts().isEmpty()) {
                m.put("counts", item.entry().plan().counts());
            }
            if (!item.entry().plan().actions().isEmpty()) {
                m.put("actions", item.entry().plan().actions());
            }
            if (item.entry().plan().omittedActions() > 0) {
                m.put("omittedActions", item.entry().plan().omittedActions());
            }
            items.add(m);
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

    private static void badRequest(RoutingContext ctx, String message) {
        ctx.response().setStatusCode(400).putHeader("Content-Type", "text/plain; charset=utf-8").end(message + "\n");
    }

    @Override
    public void close() {
        render.close();
    }
}
