package dev.kruisevertx.queue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The opt-in spin-before-park of {@link WorkQueue#take}: off by default, never changes what takers get. */
class WorkQueueSpinTest {

    private final List<WorkQueue<?>> queues = new ArrayList<>();

    private <K> WorkQueue<K> track(WorkQueue<K> q) {
        queues.add(q);
        return q;
    }

    @AfterEach
    void shutDownQueues() {
        queues.forEach(WorkQueue::shutDown);
    }

    @Test
    void theDefaultQueueParksWithoutSpinning() throws Exception {
        WorkQueue<String> q = track(WorkQueue.<String>builder("default").build());
        assertEquals(0, q.spinNanos());
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<String> taker = pool.submit(q::take);
            // Let the taker reach the empty queue before the key arrives, so a spin would have been counted.
            WorkQueueTest.waitUntil(() -> queueHasBlockedTaker(q), "the taker waits on the empty queue");
            q.add("a");
            assertEquals("a", taker.get(60, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, q.spunTakes(), "a default queue must not spin");
    }

    @Test
    void theSystemPropertySetsTheDefaultAndTheBuilderOverridesIt() {
        String before = System.getProperty(WorkQueue.Builder.SPIN_PROPERTY);
        try {
            System.setProperty(WorkQueue.Builder.SPIN_PROPERTY, "40");
            assertEquals(40_000, track(WorkQueue.<String>builder("prop").build()).spinNanos());
            assertEquals(0, track(WorkQueue.<String>builder("off").spinBeforePark(Duration.ZERO).build()).spinNanos());
            System.setProperty(WorkQueue.Builder.SPIN_PROPERTY, "not-a-number");
            assertEquals(0, track(WorkQueue.<String>builder("bad").build()).spinNanos(), "a bad value is ignored");
            System.setProperty(WorkQueue.Builder.SPIN_PROPERTY, "-5");
            assertEquals(0, track(WorkQueue.<String>builder("negative").build()).spinNanos());
        } finally {
            if (before == null) {
                System.clearProperty(WorkQueue.Builder.SPIN_PROPERTY);
            } else {
                System.setProperty(WorkQueue.Builder.SPIN_PROPERTY, before);
            }
        }
        assertThrows(IllegalArgumentException.class,
                () -> WorkQueue.<String>builder("x").spinBeforePark(Duration.ofNanos(-1)));
        assertThrows(IllegalArgumentException.class,
                () -> WorkQueue.<String>builder("x").spinBeforePark(Duration.ofSeconds(1)));
    }

    @Test
    void spinningTakersGetEveryKeyExactlyOnce() throws Exception {
        WorkQueue<Integer> q = track(WorkQueue.<Integer>builder("spin").spinBeforePark(Duration.ofMillis(1)).build());
        int keys = 20_000;
        int workers = 3;
        AtomicIntegerArray taken = new AtomicIntegerArray(keys);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<?>> takers = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                takers.add(pool.submit(() -> {
                    Integer k;
                    while ((k = q.take()) != null) {
                        taken.incrementAndGet(k);
                        q.done(k);
                    }
                    return null;
                }));
            }
            // Distinct keys, each added once, in small bursts with pauses: takers find the queue empty often,
            // spin, and sometimes spin out and park, so both paths hand out keys.
            for (int i = 0; i < keys; i++) {
                q.add(i);
                if (i % 500 == 0) {
                    Thread.sleep(2);
                }
            }
            WorkQueueTest.waitUntil(() -> sum(taken) == keys, "every key was taken");
            q.shutDownWithDrain().toCompletableFuture().get(60, TimeUnit.SECONDS);
            for (Future<?> t : takers) {
                t.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        for (int i = 0; i < keys; i++) {
            assertEquals(1, taken.get(i), "key " + i + " taken once");
        }
        assertTrue(q.spunTakes() > 0, "the takers did spin");
    }

    @Test
    void shutDownReleasesASpinningTaker() throws Exception {
        // A spin far longer than the test's patience: only the shutdown can end it in time.
        WorkQueue<String> q = track(WorkQueue.<String>builder("spin-shutdown")
                .spinNanosUnchecked(TimeUnit.MINUTES.toNanos(10)).build());
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<String> taker = pool.submit(q::take);
            WorkQueueTest.waitUntil(() -> q.spunTakes() == 1, "the taker spins");
            assertEquals(0, q.blockedTakers(), "the taker is spinning, not parked");
            q.shutDown();
            assertNull(taker.get(60, TimeUnit.SECONDS), "a spinning taker gets null at shutdown");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSpinningTakerStillParksAndIsWokenByALaterAdd() throws Exception {
        WorkQueue<String> q = track(WorkQueue.<String>builder("spin-park").spinBeforePark(Duration.ofNanos(50_000))
                .build());
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<String> taker = pool.submit(q::take);
            WorkQueueTest.waitUntil(() -> queueHasBlockedTaker(q), "the taker spun out and parked");
            q.add("late");
            assertEquals("late", taker.get(60, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    private static boolean queueHasBlockedTaker(WorkQueue<?> q) {
        return q.blockedTakers() > 0;
    }

    private static int sum(AtomicIntegerArray a) {
        int s = 0;
        for (int i = 0; i < a.length(); i++) {
            s += a.get(i);
        }
        return s;
    }
}
