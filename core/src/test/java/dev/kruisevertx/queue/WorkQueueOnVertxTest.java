package dev.kruisevertx.queue;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The way controller verticles consume the queue: next() callbacks that hop onto the verticle's context. */
@ExtendWith(VertxExtension.class)
class WorkQueueOnVertxTest {

    @Test
    void eventLoopWorkersProcessEveryKeyWithoutBlocking(Vertx vertx, VertxTestContext test) throws Exception {
        WorkQueue<String> queue = WorkQueue.<String>builder("vertx").build();
        Context context = vertx.getOrCreateContext();
        Set<String> processed = ConcurrentHashMap.newKeySet();
        Set<String> inFlight = ConcurrentHashMap.newKeySet();
        AtomicInteger offContext = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        int keys = 500;

        class Worker {
            void next() {
                queue.next(key -> context.runOnContext(v -> {
                    if (key == null) {
                        return;
                    }
                    if (!Context.isOnEventLoopThread()) {
                        offContext.incrementAndGet();
                    }
                    if (!inFlight.add(key)) {
                        overlaps.incrementAndGet();
                    }
                    // Simulated asynchronous reconcile: finish a millisecond later, then ask for more.
                    vertx.setTimer(1, t -> {
                        inFlight.remove(key);
                        processed.add(key);
                        queue.done(key);
                        if (processed.size() == keys) {
                            test.completeNow();
                        }
                        next();
                    });
                }));
            }
        }
        context.runOnContext(v -> {
            for (int i = 0; i < 3; i++) {
                new Worker().next();
            }
        });
        Thread producer = new Thread(() -> {
            for (int i = 0; i < keys; i++) {
                String key = "default/cs-" + i;
                if (i % 2 == 0) {
                    queue.add(key);
                    queue.add(key);
                } else {
                    queue.addAfter(key, Duration.ofMillis(i % 50));
                }
            }
        });
        producer.start();
        assertTrue(test.awaitCompletion(60, TimeUnit.SECONDS), "every key processed");
        producer.join();
        queue.shutDown();
        assertEquals(0, offContext.get(), "work ran off the event loop");
        assertEquals(0, overlaps.get(), "a key was processed twice at once");
    }
}
