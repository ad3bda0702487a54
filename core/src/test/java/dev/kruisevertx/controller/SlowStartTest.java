package dev.kruisevertx.controller;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SlowStartTest {
    /** Items started so far, each with the promise that completes it. */
    private record Running(int item, Promise<Void> promise) {
    }

    private final List<Integer> started = new ArrayList<>();
    private final List<Running> running = new ArrayList<>();
    private final List<Integer> notStarted = new ArrayList<>();

    private Future<?> start(int item) {
        started.add(item);
        Promise<Void> p = Promise.promise();
        running.add(new Running(item, p));
        return p.future();
    }

    private static List<Integer> items(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    /** Completes every started item not completed yet, {@code failing} ones with an error. */
    private void completeRunning(List<Integer> failing, RuntimeException error) {
        List<Running> now = new ArrayList<>(running);
        running.clear();
        for (Running r : now) {
            if (failing.contains(r.item())) {
                r.promise().fail(error);
            } else {
                r.promise().complete();
            }
        }
    }

    @Test
    void batchesDoubleUntilEverythingIsStarted() {
        Future<Void> done = SlowStart.run(items(10), this::start, () -> null, notStarted::add);
        List<Integer> batchSizes = new ArrayList<>();
        while (!running.isEmpty()) {
            batchSizes.add(running.size());
            completeRunning(List.of(), null);
        }
        assertEquals(List.of(1, 2, 4, 3), batchSizes);
        assertTrue(done.succeeded());
        assertEquals(items(10), started);
        assertTrue(notStarted.isEmpty());
    }

    @Test
    void stopsAfterTheFirstBatchWithAFailureOnceThatBatchCompleted() {
        RuntimeException refused = new RuntimeException("refused");
        Future<Void> done = SlowStart.run(items(20), this::start, () -> null, notStarted::add);
        completeRunning(List.of(), null);
        completeRunning(List.of(), null);
        // Batch 3 (items 3..6): item 4 fails, the others of the batch still complete; nothing more starts.
        assertEquals(4, running.size());
        Running last = running.remove(3);
        completeRunning(List.of(4), refused);
        assertFalse(done.isComplete(), "the failing batch still has an item in flight");
        last.promise().complete();
        assertTrue(done.failed());
        assertSame(refused, done.cause());
        assertEquals(items(7), started);
        assertEquals(IntStream.range(7, 20).boxed().toList(), notStarted);
    }

    @Test
    void theGuardStopsBeforeABatchAndNamesWhy() {
        AtomicInteger asked = new AtomicInteger();
        Future<Void> done = SlowStart.run(items(10), this::start,
                () -> asked.incrementAndGet() > 2 ? "the owner was deleted" : null, notStarted::add);
        completeRunning(List.of(), null);
        completeRunning(List.of(), null);
        assertTrue(done.failed());
        StalePlanException stale = assertInstanceOf(StalePlanException.class, done.cause());
        assertEquals("stopped after 3 of 10: the owner was deleted", stale.getMessage());
        assertEquals(items(3), started);
        assertEquals(IntStream.range(3, 10).boxed().toList(), notStarted);
    }

    @Test
    void aGuardThatSaysStopAtOnceStartsNothing() {
        Future<Void> done = SlowStart.run(items(3), this::start, () -> "the owner is being deleted", notStarted::add);
        assertInstanceOf(StalePlanException.class, done.cause());
        assertTrue(started.isEmpty());
        assertEquals(items(3), notStarted);
    }

    @Test
    void anActionThrowingCountsAsAFailureOfItsBatch() {
        IllegalStateException broken = new IllegalStateException("cannot build the request");
        Future<Void> done = SlowStart.run(items(5), item -> {
            if (item == 1) {
                throw broken;
            }
            return Future.succeededFuture();
        }, () -> null, notStarted::add);
        assertSame(broken, done.cause());
        assertEquals(List.of(3, 4), notStarted);
    }

    @Test
    void nothingToDoSucceeds() {
        assertTrue(SlowStart.run(List.<Integer>of(), this::start, () -> "never asked", notStarted::add).succeeded());
    }
}
