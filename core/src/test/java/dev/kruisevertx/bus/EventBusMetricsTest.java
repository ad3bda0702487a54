package dev.kruisevertx.bus;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventBusMetricsTest {
    private Vertx vertx;

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void countsPerAddressAndTimesHandlers() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        InstrumentedVertx.Instrumented instrumented = InstrumentedVertx.create(new VertxOptions(), registry);
        vertx = instrumented.vertx();
        CountDownLatch handled = new CountDownLatch(3);
        CountDownLatch replied = new CountDownLatch(1);
        vertx.eventBus().<String>localConsumer("kruise.test", msg -> {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            if (msg.replyAddress() != null) {
                msg.reply("pong");
            }
            handled.countDown();
        }).completion().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.eventBus().publish("kruise.test", "a");
        vertx.eventBus().send("kruise.test", "b");
        vertx.eventBus().request("kruise.test", "c").onSuccess(r -> replied.countDown());
        assertTrue(handled.await(10, TimeUnit.SECONDS));
        assertTrue(replied.await(10, TimeUnit.SECONDS));

        Map<String, Object> stats = instrumented.eventBusMetrics().snapshot().get("kruise.test");
        assertEquals(1L, stats.get("handlers"));
        assertEquals(1L, stats.get("published"));
        assertEquals(2L, stats.get("sent"));
        assertEquals(3L, stats.get("received"));
        assertEquals(3L, stats.get("delivered"));
        assertEquals(0L, stats.get("pending"));
        assertEquals(3L, stats.get("handlerCount"));
        assertTrue((Double) stats.get("handlerTotalMillis") >= 55, "handler time measured: " + stats);
        assertEquals(3.0, registry.get("kruise_eventbus_messages_delivered").tag("address", "kruise.test").counter().count());
        // Reply addresses are folded into one series instead of one per request.
        assertFalse(instrumented.eventBusMetrics().snapshot().keySet().stream()
                .anyMatch(a -> a.startsWith("__vertx.reply.")), instrumented.eventBusMetrics().snapshot().keySet().toString());
    }
}
