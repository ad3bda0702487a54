package dev.kruisevertx.queue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkQueueTest {

    private final List<WorkQueue<?>> queues = new ArrayList<>();

    private <K> WorkQueue<K> queue() {
        WorkQueue<K> q = WorkQueue.<K>builder("test").build();
        queues.add(q);
        return q;
    }

    @AfterEach
    void shutDownQueues() {
        queues.forEach(WorkQueue::shutDown);
    }

    @Test
    void addedKeysComeOutInOrderAndDuplicatesAreStoredOnce() {
        WorkQueue<String> q = queue();
        q.add("a");
        q.add("b");
        q.add("a");
        q.add("c");
        q.add("b");
        assertEquals(3, q.len());
        assertEquals("a", q.poll());
        assertEquals("b", q.poll());
        assertEquals("c", q.poll());
        assertNull(q.poll());
        assertEquals(0, q.len());
    }

    @Test
    void keyReaddedWhileProcessingIsQueuedOnlyAfterDone() {
        WorkQueue<String> q = queue();
        q.add("a");
        assertEquals("a", q.poll());
        q.add("a");
        q.add("a");
        assertEquals(0, q.len(), "a processing key is not handed out again");
        assertNull(q.poll());
        q.done("a");
        assertEquals(1, q.len(), "the re-add is queued once, after done");
        assertEquals("a", q.poll());
        q.done("a");
        assertEquals(0, q.len());
        assertNull(q.poll());
    }

    @Test
    void doneWithoutReaddForgetsTheKey() {
        WorkQueue<String> q = queue();
        q.add("a");
        assertEquals("a", q.poll());
        q.done("a");
        q.done("a");              // a second done is harmless
        q.done("never-added");    // and so is done for an unknown key
        assertNull(q.poll());
        q.add("a");
        assertEquals("a", q.poll());
    }

    @Test
    void manyDistinctKeysSurviveTableGrowthAndShrink() {
        WorkQueue<Integer> q = queue();
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 50_000; i++) {
                q.add(i);
                q.add(i);
            }
            assertEquals(50_000, q.len());
            for (int i = 0; i < 50_000; i++) {
                assertEquals(i, q.poll());
            }
            for (int i = 0; i < 50_000; i++) {
                q.done(i);
            }
            assertNull(q.poll());
        }
    }

    @Test
    void nullKeysAreRejectedWithAClearMessage() {
        WorkQueue<String> q = queue();
        var e = assertThrows(NullPointerException.class, () -> q.add(null));
        assertTrue(e.getMessage().contains("must not be null"));
        assertThrows(IllegalArgumentException.class, () -> WorkQueue.builder(" "));
    }

    @Test
    void aKeyIsNeverProcessedByTwoWorkersAtOnce() throws Exception {
        WorkQueue<Integer> q = queue();
        int keys = 20;
        int workers = 8;
        int addsPerProducer = 20_000;
        Set<Integer> inFlight = ConcurrentHashMap.newKeySet();
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger processed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(workers + 2);
        try {
            List<Future<?>> workerFutures = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                workerFutures.add(pool.submit(() -> {
                    Integer k;
                    while ((k = q.take()) != null) {
                        if (!inFlight.add(k)) {
                            violations.incrementAndGet();
                        }
                        Thread.onSpinWait();
                        inFlight.remove(k);
                        processed.incrementAndGet();
                        q.done(k);
                    }
                    return null;
                }));
            }
            List<Future<?>> producers = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                producers.add(pool.submit(() -> {
                    for (int i = 0; i < addsPerProducer; i++) {
                        q.add(i % keys);
                    }
                }));
            }
            for (Future<?> f : producers) {
                f.get(60, TimeUnit.SECONDS);
            }
            waitUntil(() -> q.len() == 0, "queue drained");
            q.shutDownWithDrain().toCompletableFuture().get(60, TimeUnit.SECONDS);
            for (Future<?> f : workerFutures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, violations.get(), "a key was handed to two workers at once");
        assertTrue(processed.get() >= keys, "every key was processed at least once: " + processed.get());
        assertTrue(processed.get() <= 2 * addsPerProducer, "dedup: never more runs than adds");
    }

    @Test
    void everyAddIsSeenByAProcessingThatStartsAfterIt() throws Exception {
        // The guarantee behind "re-add while processing": an add is never lost, because it is either still
        // queued or forces one more processing after done().
        WorkQueue<String> q = queue();
        AtomicInteger lastSeenVersion = new AtomicInteger(-1);
        AtomicInteger version = new AtomicInteger();
        Thread worker = new Thread(() -> {
            try {
                String k;
                while ((k = q.take()) != null) {
                    lastSeenVersion.set(version.get());
                    q.done(k);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        worker.start();
        for (int i = 1; i <= 10_000; i++) {
            version.set(i);
            q.add("k");
        }
        waitUntil(() -> lastSeenVersion.get() == 10_000, "the last add was processed");
        q.shutDown();
        worker.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(worker.isAlive());
    }

    @Test
    void shutDownReleasesBlockedTakersAndIgnoresLaterAdds() throws Exception {
        WorkQueue<String> q = queue();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<String>> takers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                takers.add(pool.submit(q::take));
            }
            q.shutDown();
            for (Future<String> t : takers) {
                assertNull(t.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(q.isShuttingDown());
        q.add("late");
        assertEquals(0, q.len());
        assertNull(q.take());
    }

    @Test
    void keysQueuedBeforeShutDownCanStillBeTaken() throws Exception {
        WorkQueue<String> q = queue();
        q.add("a");
        q.add("b");
        q.shutDown();
        assertEquals("a", q.take());
        assertEquals("b", q.take());
        assertNull(q.take());
    }

    @Test
    void shutDownWithDrainWaitsForProcessingKeys() throws Exception {
        WorkQueue<String> q = queue();
        q.add("a");
        q.add("b");
        assertEquals("a", q.poll());
        assertEquals("b", q.poll());
        CompletionStage<Void> drained = q.shutDownWithDrain();
        assertFalse(drained.toCompletableFuture().isDone());
        q.done("a");
        assertFalse(drained.toCompletableFuture().isDone());
        q.done("b");
        drained.toCompletableFuture().get(60, TimeUnit.SECONDS);
        assertTrue(q.shutDownWithDrain().toCompletableFuture().isDone(), "a second drain is already complete");
    }

    @Test
    void shutDownWithDrainOnAnIdleQueueCompletesAtOnce() {
        WorkQueue<String> q = queue();
        assertTrue(q.shutDownWithDrain().toCompletableFuture().isDone());
    }

    @Test
    void nextGetsAQueuedKeyImmediately() {
        WorkQueue<String> q = queue();
        q.add("a");
        AtomicReference<String> got = new AtomicReference<>();
        q.next(got::set);
        assertEquals("a", got.get());
        assertEquals(0, q.len());
        q.add("a");
        assertEquals(0, q.len(), "the key handed to next() is processing");
    }

    @Test
    void nextWaitsForAnAddAndIsCalledExactlyOnce() {
        WorkQueue<String> q = queue();
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        q.next(first::add);
        q.next(second::add);
        assertTrue(first.isEmpty());
        q.add("a");
        assertEquals(List.of("a"), first);
        assertTrue(second.isEmpty());
        q.add("a");                    // processing: only marks it dirty
        assertTrue(second.isEmpty());
        q.add("b");
        assertEquals(List.of("b"), second);
        q.add("c");
        assertEquals(List.of("a"), first, "a callback is called once");
        assertEquals(1, q.len());
    }

    @Test
    void nextIsServedWhenAReaddedKeyIsDone() {
        WorkQueue<String> q = queue();
        q.add("a");
        assertEquals("a", q.poll());
        q.add("a");
        AtomicReference<String> got = new AtomicReference<>();
        q.next(got::set);
        assertNull(got.get());
        q.done("a");
        assertEquals("a", got.get());
    }

    @Test
    void pendingNextCallbacksGetNullAtShutDown() {
        WorkQueue<String> q = queue();
        CompletableFuture<String> a = new CompletableFuture<>();
        CompletableFuture<String> b = new CompletableFuture<>();
        q.next(a::complete);
        q.next(b::complete);
        q.shutDown();
        assertTrue(a.isDone());
        assertNull(a.join());
        assertNull(b.join());
        CompletableFuture<String> late = new CompletableFuture<>();
        q.next(late::complete);
        assertNull(late.join(), "next() after shutdown on an empty queue answers null at once");
    }

    @Test
    void aThrowingCallbackDoesNotBreakTheAdder() {
        WorkQueue<String> q = queue();
        q.next(k -> {
            throw new IllegalStateException("boom");
        });
        q.add("a");
        q.add("b");
        assertEquals("b", q.poll());
    }

    @Test
    void nextCallbacksDriveAsyncWorkersConcurrently() throws Exception {
        WorkQueue<Integer> q = queue();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        Set<Integer> inFlight = ConcurrentHashMap.newKeySet();
        AtomicInteger violations = new AtomicInteger();
        Set<Integer> seen = ConcurrentHashMap.newKeySet();
        CountDownLatch stopped = new CountDownLatch(4);
        try {
            for (int w = 0; w < 4; w++) {
                new Object() {
                    void loop() {
                        q.next(k -> {
                            if (k == null) {
                                stopped.countDown();
                                return;
                            }
                            pool.execute(() -> {
                                if (!inFlight.add(k)) {
                                    violations.incrementAndGet();
                                }
                                seen.add(k);
                                inFlight.remove(k);
                                q.done(k);
                                loop();
                            });
                        });
                    }
                }.loop();
            }
            for (int i = 0; i < 20_000; i++) {
                q.add(i % 100);
            }
            waitUntil(() -> seen.size() == 100 && q.len() == 0, "every key processed");
            q.shutDownWithDrain().toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertTrue(stopped.await(60, TimeUnit.SECONDS), "every async worker was told to stop");
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, violations.get());
    }

    static void waitUntil(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(2);
        }
    }
}
