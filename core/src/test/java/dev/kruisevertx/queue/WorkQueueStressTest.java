package dev.kruisevertx.queue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several producers ({@code add}, {@code addAfter}, {@code addRateLimited}) and workers hammer one queue for a
 * bounded time; the test then checks client-go's guarantees, never timings:
 * <ul>
 *   <li>no key is processed by two workers at once;</li>
 *   <li>no add is lost: every key's last processing starts after its last add;</li>
 *   <li>a key added (any number of times) while it is processed is processed exactly once more;</li>
 *   <li>keys queued when the queue shuts down are still handed out, and the drain completes once all are done.</li>
 * </ul>
 * Order of events is taken from one shared sequence counter, so the checks hold however the threads are scheduled.
 */
class WorkQueueStressTest {

    private static final int KEYS = 300;
    /** Keys only the workers re-add while processing them: their processing counts are exact. */
    private static final int PROBES = 200;
    private static final int FINAL_KEYS = 500;
    private static final int PRODUCERS = 3;
    private static final int WORKERS = 4;
    private static final int OPS_PER_PRODUCER = 150_000;
    /** Producers stop early after this long, so a slow machine runs fewer operations, not a longer test. */
    private static final long PRODUCE_NANOS = TimeUnit.MILLISECONDS.toNanos(1500);

    /** Key ids: 0..KEYS-1 shared, then probes, then the keys added just before shutdown. */
    private static final int PROBE_BASE = KEYS;
    private static final int FINAL_BASE = KEYS + PROBES;
    private static final int ALL = FINAL_BASE + FINAL_KEYS;

    private final AtomicLong clock = new AtomicLong();
    private final AtomicLongArray lastAdd = new AtomicLongArray(ALL);
    private final AtomicLongArray lastStart = new AtomicLongArray(ALL);
    private final AtomicIntegerArray inFlight = new AtomicIntegerArray(ALL);
    private final AtomicIntegerArray processed = new AtomicIntegerArray(ALL);
    private final AtomicInteger overlaps = new AtomicInteger();
    private final AtomicLong addCalls = new AtomicLong();
    private final AtomicLong processings = new AtomicLong();

    @ParameterizedTest(name = "spin before park {0} us")
    @ValueSource(longs = {0, 20})
    void clientGoSemanticsHoldUnderConcurrentProducersAndWorkers(long spinMicros) throws Exception {
        WorkQueue<Integer> q = WorkQueue.<Integer>builder("stress")
                .rateLimiter(new ItemExponentialFailureRateLimiter<>(Duration.ofNanos(100_000), Duration.ofMillis(5)))
                .spinBeforePark(Duration.ofNanos(spinMicros * 1000))
                .build();
        ExecutorService pool = Executors.newFixedThreadPool(PRODUCERS + WORKERS);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < WORKERS; w++) {
                workers.add(pool.submit(() -> work(q)));
            }
            List<Future<?>> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                int seed = p;
                producers.add(pool.submit(() -> produce(q, seed)));
            }
            for (int i = 0; i < PROBES; i++) {
                record(PROBE_BASE + i);
                q.add(PROBE_BASE + i);
            }
            for (Future<?> f : producers) {
                f.get(60, TimeUnit.SECONDS);
            }

            // No lost add: each key's last processing started after its last add (delays are at most 5 ms, so
            // this settles quickly; the wait is generous for a loaded machine).
            WorkQueueTest.waitUntil(() -> firstKeyNotProcessedAfterLastAdd(0, FINAL_BASE) < 0,
                    "every key processed after its last add");
            WorkQueueTest.waitUntil(this::allProbesTwice,
                    "every probe processed twice");

            // Keys queued when the queue shuts down are still handed out; the drain waits for all of them.
            for (int i = 0; i < FINAL_KEYS; i++) {
                record(FINAL_BASE + i);
                q.add(FINAL_BASE + i);
            }
            q.shutDownWithDrain().toCompletableFuture().get(60, TimeUnit.SECONDS);
            for (Future<?> f : workers) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            q.shutDown();
            pool.shutdownNow();
        }

        assertEquals(0, overlaps.get(), "a key was processed by two workers at once");
        int stale = firstKeyNotProcessedAfterLastAdd(0, ALL);
        assertTrue(stale < 0, () -> "key " + stale + ": last add at " + lastAdd.get(stale)
                + " but last processing started at " + lastStart.get(stale));
        for (int i = 0; i < PROBES; i++) {
            assertEquals(2, processed.get(PROBE_BASE + i),
                    "probe " + i + ": re-added three times while processing, so processed exactly once more");
        }
        for (int i = 0; i < FINAL_KEYS; i++) {
            assertEquals(1, processed.get(FINAL_BASE + i), "key queued at shutdown " + i + " processed once");
        }
        assertEquals(0, q.len());
        // Shared keys: at most one processing per add (duplicates merge); probes exactly 2, final keys 1.
        assertTrue(processings.get() <= addCalls.get() + 2L * PROBES + FINAL_KEYS,
                "dedup: never more processings than adds");
    }

    private Void produce(WorkQueue<Integer> q, int seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long deadline = System.nanoTime() + PRODUCE_NANOS;
        for (int i = 0; i < OPS_PER_PRODUCER && System.nanoTime() - deadline < 0; i++) {
            int key = random.nextInt(KEYS);
            record(key);
            addCalls.incrementAndGet();
            switch (random.nextInt(4)) {
                case 0, 1 -> q.add(key);
                case 2 -> q.addAfter(key, Duration.ofNanos(random.nextLong(0, 3_000_000)));
                default -> q.addRateLimited(key);
            }
        }
        return null;
    }

    private Void work(WorkQueue<Integer> q) throws InterruptedException {
        Integer key;
        while ((key = q.take()) != null) {
            int k = key;
            if (!inFlight.compareAndSet(k, 0, 1)) {
                overlaps.incrementAndGet();
            }
            lastStart.accumulateAndGet(k, clock.incrementAndGet(), Math::max);
            int times = processed.incrementAndGet(k);
            processings.incrementAndGet();
            if (k >= PROBE_BASE && k < FINAL_BASE && times == 1) {
                // Dirty while processing: however often, it must come back exactly once after done().
                for (int r = 0; r < 3; r++) {
                    record(k);
                    q.add(k);
                }
            }
            if (k < KEYS && (k & 1) == 0) {
                q.forget(key);
            }
            inFlight.set(k, 0);
            q.done(key);
        }
        return null;
    }

    /** Stamps an add of {@code key} before it is made, so any processing that sees it starts later. */
    private void record(int key) {
        lastAdd.accumulateAndGet(key, clock.incrementAndGet(), Math::max);
    }

    private int firstKeyNotProcessedAfterLastAdd(int from, int to) {
        for (int k = from; k < to; k++) {
            if (lastAdd.get(k) != 0 && lastStart.get(k) < lastAdd.get(k)) {
                return k;
            }
        }
        return -1;
    }

    private boolean allProbesTwice() {
        for (int i = 0; i < PROBES; i++) {
            if (processed.get(PROBE_BASE + i) < 2) {
                return false;
            }
        }
        return true;
    }
}
