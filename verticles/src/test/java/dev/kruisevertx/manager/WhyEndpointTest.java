package dev.kruisevertx.manager;

import dev.kruisevertx.bus.EventBusMetrics;
import dev.kruisevertx.controller.PlanRecorder;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.reason.Reasons;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code /why/CONTROLLER/NS/NAME} (what kubectl kruise why reads) and the text view of {@code /debug/plans}. */
class WhyEndpointTest {
    Vertx vertx;
    DebugEndpoints debug;
    HttpServer server;
    final AtomicBoolean leading = new AtomicBoolean(true);
    final PlanRecorder plans = new PlanRecorder(Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC));

    @BeforeEach
    void start() throws Exception {
        plans.record("cloneset", new Request("prod", "web"), PlanSummary.builder("UPDATE: update 0 of 2 pods")
                .count("updateNum", 2).action("mark pod web-a for deletion")
                .reasons(List.of(Reasons.maxUnavailable("updateStrategy.maxUnavailable", 1, List.of("web-b"), 1, 2,
                        "updated"), Reasons.partition("updateStrategy.partition", 1, 1))).build());
        plans.record("statefulset", new Request("prod", "db"), "desired ordinals [0, 1]");
        vertx = Vertx.vertx();
        debug = new DebugEndpoints(vertx, new EventBusMetrics(new SimpleMeterRegistry()), plans, Map::of, leading::get);
        Router router = debug.router();
        router.get("/why/*").handler(debug::why);
        server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        debug.close();
        vertx.close().await(30, TimeUnit.SECONDS);
    }

    @Test
    void whyAnswersTheLastDecisionWithItsReasons() throws Exception {
        HttpResponse<String> r = TestManagers.get(server.actualPort(), "/why/cloneset/prod/web");
        assertEquals(200, r.statusCode(), r.body());
        JsonObject answer = new JsonObject(r.body());
        assertEquals(true, answer.getBoolean("leader"));
        assertEquals("prod/web", answer.getString("object"));
        assertEquals("2026-01-02T03:04:05Z", answer.getString("at"));
        assertEquals(new JsonObject().put("code", "MaxUnavailable").put("message",
                        "updateStrategy.maxUnavailable 1 reached: 1 unavailable now (web-b); 2 pods wait to be updated")
                        .put("intended", false)
                        .put("numbers", new JsonObject().put("maxUnavailable", 1).put("unavailable", 1).put("waiting", 2))
                        .put("objects", new io.vertx.core.json.JsonArray().add("web-b")),
                answer.getJsonArray("reasons").getJsonObject(0));
        assertEquals("Partition", answer.getJsonArray("reasons").getJsonObject(1).getString("code"));
    }

    @Test
    void whyOnAStandbyIs503AndAnUnknownObject404() throws Exception {
        HttpResponse<String> unknown = TestManagers.get(server.actualPort(), "/why/cloneset/prod/nope");
        assertEquals(404, unknown.statusCode());
        assertEquals("no decision recorded by controller cloneset for prod/nope (not reconciled yet, or no such object)",
                new JsonObject(unknown.body()).getString("message"));
        HttpResponse<String> bad = TestManagers.get(server.actualPort(), "/why/cloneset/web");
        assertEquals(400, bad.statusCode());
        assertEquals("expected /why/CONTROLLER/NAMESPACE/NAME, e.g. /why/cloneset/default/web\n", bad.body());
        leading.set(false);
        HttpResponse<String> standby = TestManagers.get(server.actualPort(), "/why/cloneset/prod/web");
        assertEquals(503, standby.statusCode());
        assertEquals(false, new JsonObject(standby.body()).getBoolean("leader"));
    }

    @Test
    void aClusterScopedObjectIsAskedForWithTheNamespaceDash() throws Exception {
        plans.record("sidecarset", new Request("", "log-shipper"), PlanSummary.builder("sidecarset log-shipper: "
                + "0 to upgrade").reasons(List.of(Reasons.paused("updateStrategy.paused", 2))).build());
        HttpResponse<String> r = TestManagers.get(server.actualPort(), "/why/sidecarset/-/log-shipper");
        assertEquals(200, r.statusCode(), r.body());
        JsonObject answer = new JsonObject(r.body());
        assertEquals("log-shipper", answer.getString("object"));
        assertEquals("Paused", answer.getJsonArray("reasons").getJsonObject(0).getString("code"));
        HttpResponse<String> unknown = TestManagers.get(server.actualPort(), "/why/sidecarset/-/nope");
        assertEquals(404, unknown.statusCode());
        assertEquals("no decision recorded by controller sidecarset for nope (not reconciled yet, or no such object)",
                new JsonObject(unknown.body()).getString("message"));
    }

    @Test
    void plansHaveATextView() throws Exception {
        HttpResponse<String> r = TestManagers.get(server.actualPort(), "/debug/plans?format=text");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("""
                cloneset prod/web
                  at 2026-01-02T03:04:05Z
                  summary: UPDATE: update 0 of 2 pods
                  counts: updateNum=2
                  action: mark pod web-a for deletion
                  held by MaxUnavailable: updateStrategy.maxUnavailable 1 reached: 1 unavailable now (web-b); 2 pods wait to be updated
                  held by Partition: updateStrategy.partition 1 keeps 1 pod at the current revision
                statefulset prod/db
                  at 2026-01-02T03:04:05Z
                  summary: desired ordinals [0, 1]
                """, r.body());
        HttpResponse<String> bad = TestManagers.get(server.actualPort(), "/debug/plans?format=yaml");
        assertEquals(400, bad.statusCode());
        assertEquals("format must be json or text, got \"yaml\"\n", bad.body());
        JsonObject json = new JsonObject(TestManagers.get(server.actualPort(), "/debug/plans?controller=cloneset").body());
        assertEquals("MaxUnavailable", json.getJsonArray("items").getJsonObject(0).getJsonArray("reasons")
                .getJsonObject(0).getString("code"));
    }
}
