package dev.kruisevertx.agent.imagepuller;

import dev.kruisevertx.sim.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NodeImage status writes: bounded by qps and burst, one at a time, coalesced to the latest value, retried. */
class StatusWriterTest {
    final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aStormOfChangesBecomesAFewWritesOfTheLatestStatus() {
        AtomicInteger value = new AtomicInteger();
        List<Integer> written = new CopyOnWriteArrayList<>();
        long[] started = new long[1];
        vertx.runOnContext(v -> {
            // kruise-daemon's limits: 0.5 writes a second, burst 5.
            StatusWriter<Integer> w = new StatusWriter<>(vertx, StatusWriter.QPS, StatusWriter.BURST, value::get, s -> {
                written.add(s);
                return Future.succeededFuture();
            });
            started[0] = System.nanoTime();
            // 1,000 changes within about a second.
            vertx.setPeriodic(1, id -> {
                if (value.incrementAndGet() >= 1000) {
                    vertx.cancelTimer(id);
                }
                w.request();
            });
        });
        Await.waitFor("the last value written", Duration.ofSeconds(60), () -> written.contains(1000));
        double seconds = (System.nanoTime() - started[0]) / 1e9;
        // At most the burst plus 0.5 a second since the start (and one for rounding).
        assertTrue(written.size() <= StatusWriter.BURST + 1 + seconds * StatusWriter.QPS,
                written.size() + " writes in " + seconds + " s");
        assertTrue(written.size() >= 2, "the first change and the last are both written: " + written);
        for (int i = 1; i < written.size(); i++) {
            assertTrue(written.get(i) > written.get(i - 1), "each write carries a newer value: " + written);
        }
    }

    @Test
    void oneWriteAtATimeAndAFailedWriteIsRetried() {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        AtomicInteger attempts = new AtomicInteger();
        List<Promise<Void>> pending = new CopyOnWriteArrayList<>();
        StatusWriter<String>[] writer = new StatusWriter[1];
        vertx.runOnContext(v -> {
            writer[0] = new StatusWriter<>(vertx, 100, 100, () -> "s", s -> {
                int n = inFlight.incrementAndGet();
                maxInFlight.accumulateAndGet(n, Math::max);
                Promise<Void> p = Promise.promise();
                pending.add(p);
                return p.future().onComplete(ar -> inFlight.decrementAndGet());
            });
            for (int i = 0; i < 10; i++) {
                writer[0].request();
            }
        });
        Await.waitFor("first write started", Duration.ofSeconds(30), () -> pending.size() == 1);
        vertx.runOnContext(v -> pending.get(0).fail("HTTP 500"));
        // the failure is retried after a second, and the requests made meanwhile need no more than that write
        Await.waitFor("retried", Duration.ofSeconds(30), () -> pending.size() == 2);
        vertx.runOnContext(v -> pending.get(1).complete());
        Await.waitFor("written", Duration.ofSeconds(30), () -> inFlight.get() == 0);
        attempts.set(pending.size());
        assertEquals(1, maxInFlight.get());
        assertEquals(2, attempts.get());
    }
}
