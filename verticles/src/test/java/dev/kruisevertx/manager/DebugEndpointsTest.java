package dev.kruisevertx.manager;

import dev.kruisevertx.bus.EventBusMetrics;
import dev.kruisevertx.controller.PlanRecorder;
import dev.kruisevertx.controller.Request;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The debug views with many objects: bounded pages, a continue token, answers built off the event loop. */
class DebugEndpointsTest {
    static final int OBJECTS = 100_000;

    Vertx vertx;
    DebugEndpoints debug;
    HttpServer server;
    final PlanRecorder plans = new PlanRecorder();
    final AtomicReference<String> renderedOn = new AtomicReference<>();

    @BeforeEach
    void start() throws Exception {
        for (int i = 0; i < OBJECTS; i++) {
            plans.record("cloneset", new Request("ns-" + (i % 100), "web-" + i), "NONE: nothing to do");
        }
        vertx = Vertx.vertx();
        debug = new DebugEndpoints(vertx, new EventBusMetrics(new SimpleMeterRegistry()), plans, () -> {
            renderedOn.set(Thread.currentThread().getName());
            return Map.of("cloneset", "RUNNING");
        });
        server = vertx.createHttpServer().requestHandler(debug.router()).listen(0, "127.0.0.1").await(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        debug.close();
        vertx.close().await(30, TimeUnit.SECONDS);
    }

    @Test
    void plansArePagedWithABoundedPageSize() throws Exception {
        JsonObject first = new JsonObject(TestManagers.get(server.actualPort(), "/debug/plans").body());
        assertEquals(DebugEndpoints.DEFAULT_LIMIT, first.getJsonArray("items").size());
        assertTrue(first.containsKey("continue"));

        // Asking for everything gets the largest page; the rest follows by continue token.
        Set<String> seen = new HashSet<>();
        String token = null;
        int pages = 0;
        do {
            String path = "/debug/plans?controller=cloneset&limit=" + OBJECTS
                    + (token == null ? "" : "&continue=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
            HttpResponse<String> r = TestManagers.get(server.actualPort(), path);
            assertEquals(200, r.statusCode(), r.body());
            JsonObject page = new JsonObject(r.body());
            assertTrue(page.getJsonArray("items").size() <= DebugEndpoints.MAX_LIMIT);
            page.getJsonArray("items").forEach(i -> seen.add(((JsonObject) i).getString("object")));
            token = page.getString("continue");
            pages++;
        } while (token != null);
        assertEquals(OBJECTS, seen.size());
        assertEquals(OBJECTS / DebugEndpoints.MAX_LIMIT, pages);
    }

    @Test
    void badPagingParametersAre400() throws Exception {
        HttpResponse<String> limit = TestManagers.get(server.actualPort(), "/debug/plans?limit=all");
        assertEquals(400, limit.statusCode());
        assertEquals("limit must be a number, got \"all\"\n", limit.body());
        HttpResponse<String> token = TestManagers.get(server.actualPort(), "/debug/plans?continue=garbage!");
        assertEquals(400, token.statusCode());
        assertTrue(token.body().contains("invalid continue token"), token.body());
    }

    @Test
    void viewsAreBuiltOnTheDebugPoolNotOnAnEventLoop() throws Exception {
        HttpResponse<String> r = TestManagers.get(server.actualPort(), "/debug/controllers");
        assertEquals(200, r.statusCode());
        assertEquals("RUNNING", new JsonObject(r.body()).getString("cloneset"));
        assertTrue(renderedOn.get().startsWith("kruise-debug-render"), renderedOn.get());
        assertFalse(renderedOn.get().contains("eventloop"), renderedOn.get());
    }
}
