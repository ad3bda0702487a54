package dev.kruisevertx.queue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.kruisevertx.queue.WorkQueueTest.waitUntil;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DelayedAddTest {

    private final ManualTicker ticker = new ManualTicker();
    private final List<WorkQueue<?>> queues = new ArrayList<>();

    private WorkQueue<String> manualQueue() {
        WorkQueue<String> q = WorkQueue.<String>builder("delays").ticker(ticker).manualDelays().build();
        queues.add(q);
        return q;
    }

    @AfterEach
    void shutDownQueues() {
        queues.forEach(WorkQueue::shutDown);
    }

    @Test
    void delayedKeysArriveInDueOrderOnlyWhenDue() {
        WorkQueue<String> q = manualQueue();
        q.addAfter("c", Duration.ofSeconds(3));
        q.addAfter("a", Duration.ofSeconds(1));
        q.addAfter("b", Duration.ofSeconds(2));
        assertEquals(3, q.delayedLen());
        assertEquals(0, q.releaseDueDelayed());
        assertEquals(0, q.len());

        ticker.advance(Duration.ofMillis(999));
        assertEquals(0, q.releaseDueDelayed());
        ticker.advance(Duration.ofMillis(1));
        assertEquals(1, q.releaseDueDelayed());
        assertEquals("a", q.poll());

        ticker.advance(Duration.ofSeconds(5));
        assertEquals(2, q.releaseDueDelayed());
        assertEquals("b", q.poll());
        assertEquals("c", q.poll());
        assertEquals(0, q.delayedLen());
    }

    @Test
    void keysDueAtTheSameTimeKeepTheirAddOrder() {
        WorkQueue<String> q = manualQueue();
        for (String k : List.of("x", "y", "z", "w")) {
            q.addAfter(k, Duration.ofSeconds(1));
        }
        ticker.advance(Duration.ofSeconds(1));
        q.releaseDueDelayed();
        assertEquals("x", q.poll());
        assertEquals("y", q.poll());
        assertEquals("z", q.poll());
        assertEquals("w", q.poll());
    }

    @Test
    void anEarlierDueTimeWinsAndALaterOneIsIgnored() {
        WorkQueue<String> q = manualQueue();
        q.addAfter("a", Duration.ofSeconds(10));
        q.addAfter("a", Duration.ofSeconds(2));    // earlier: moves the key forward
        q.addAfter("a", Duration.ofSeconds(30));   // later: ignored
        assertEquals(1, q.delayedLen());
        ticker.advance(Duration.ofSeconds(2));
        assertEquals(1, q.releaseDueDelayed());
        assertEquals("a", q.poll());
        ticker.advance(Duration.ofSeconds(60));
        assertEquals(0, q.releaseDueDelayed(), "the key was waiting once, so it arrives once");
    }

    @Test
    void zeroOrNegativeDelayAddsAtOnce() {
        WorkQueue<String> q = manualQueue();
        q.addAfter("a", Duration.ZERO);
        q.addAfter("b", Duration.ofSeconds(-5));
        assertEquals(2, q.len());
        assertEquals(0, q.delayedLen());
    }

    @Test
    void aDelayedKeyAlreadyQueuedIsStoredOnce() {
        WorkQueue<String> q = manualQueue();
        q.add("a");
        q.addAfter("a", Duration.ofSeconds(1));
        ticker.advance(Duration.ofSeconds(1));
        q.releaseDueDelayed();
        assertEquals(1, q.len());
    }

    @Test
    void aDueKeyIsServedToAWaitingNextCallback() {
        WorkQueue<String> q = manualQueue();
        List<String> got = new ArrayList<>();
        q.next(got::add);
        q.addAfter("a", Duration.ofMillis(5));
        ticker.advance(Duration.ofMillis(5));
        q.releaseDueDelayed();
        assertEquals(List.of("a"), got);
    }

    @Test
    void absurdlyLongDelaysAreAcceptedAndNeverFire() {
        WorkQueue<String> q = manualQueue();
        q.addAfter("forever", Duration.ofSeconds(Long.MAX_VALUE));
        q.addAfter("long", Duration.ofDays(365 * 100));
        ticker.advance(Duration.ofDays(365));
        assertEquals(0, q.releaseDueDelayed());
        assertEquals(2, q.delayedLen());
        q.addAfter("forever", Duration.ofMillis(1));
        ticker.advance(Duration.ofMillis(1));
        assertEquals(1, q.releaseDueDelayed());
        assertEquals("forever", q.poll());
    }

    @Test
    void shutDownDropsDelayedKeys() {
        WorkQueue<String> q = manualQueue();
        q.addAfter("a", Duration.ofSeconds(1));
        q.shutDown();
        ticker.advance(Duration.ofSeconds(1));
        assertEquals(0, q.releaseDueDelayed());
        q.addAfter("b", Duration.ofSeconds(1));
        assertEquals(0, q.delayedLen());
        assertNull(q.poll());
    }

    @Test
    void keysFarBeyondTheWheelAndNearOnesAllArriveExactlyWhenDue() {
        WorkQueue<String> q = manualQueue();
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        java.util.Map<String, Long> due = new java.util.HashMap<>();
        long start = ticker.nanoTime();
        for (int i = 0; i < 5_000; i++) {
            String key = "k" + random.nextInt(2_000);
            // Mostly near (inside the 4 s wheel), some far (the heap), a few very far.
            long delayMs = switch (random.nextInt(10)) {
                case 0 -> 4_000 + random.nextLong(60_000);
                case 1 -> random.nextLong(1_000_000);
                default -> 1 + random.nextLong(4_500);
            };
            long dueAt = ticker.nanoTime() + delayMs * 1_000_000L;
            due.merge(key, dueAt, Math::min);
            q.addAfter(key, Duration.ofMillis(delayMs));
            if (i % 100 == 0) {
                ticker.advance(Duration.ofNanos(random.nextLong(3_000_000)));
                checkReleases(q, due);
            }
        }
        while (!due.isEmpty()) {
            ticker.advance(Duration.ofNanos(1 + random.nextLong(800_000_000L)));
            checkReleases(q, due);
        }
        assertEquals(0, q.delayedLen());
        assertTrue(ticker.nanoTime() > start);
    }

    /** Releases what is due and checks it is exactly the keys whose earliest due time has passed. */
    private void checkReleases(WorkQueue<String> q, java.util.Map<String, Long> due) {
        q.releaseDueDelayed();
        long now = ticker.nanoTime();
        java.util.Set<String> expected = new java.util.HashSet<>();
        due.forEach((k, t) -> {
            if (t <= now) {
                expected.add(k);
            }
        });
        java.util.Set<String> released = new java.util.HashSet<>();
        String k;
        while ((k = q.poll()) != null) {
            released.add(k);
            q.done(k);
        }
        assertEquals(expected, released, "released at " + now);
        expected.forEach(due::remove);
    }

    @Test
    void anEarlierAddMovesAFarKeyIntoTheWheel() {
        WorkQueue<String> q = manualQueue();
        q.addAfter("a", Duration.ofMinutes(30));
        q.addAfter("b", Duration.ofSeconds(2));
        q.addAfter("a", Duration.ofSeconds(1));
        ticker.advance(Duration.ofSeconds(1));
        assertEquals(1, q.releaseDueDelayed());
        assertEquals("a", q.poll());
        ticker.advance(Duration.ofHours(1));
        assertEquals(1, q.releaseDueDelayed());
        assertEquals("b", q.poll());
        assertEquals(0, q.delayedLen());
    }

    @Test
    void theDelayThreadDeliversOnRealTime() throws Exception {
        WorkQueue<String> q = WorkQueue.<String>builder("real-delays").build();
        queues.add(q);
        long start = System.nanoTime();
        q.addAfter("late", Duration.ofMillis(200));
        q.addAfter("soon", Duration.ofMillis(20));
        assertEquals("soon", q.take());
        assertEquals("late", q.take());
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(200), "not before its due time");
        q.shutDown();
        assertTrue(q.delayedAdds().awaitThreadExit(60, TimeUnit.SECONDS), "the delay thread stops");
    }

    @Test
    void concurrentDelayedAddsFromManyThreadsAreNeitherLostNorEarly() throws Exception {
        WorkQueue<Integer> q = WorkQueue.<Integer>builder("delay-stress").build();
        queues.add(q);
        int keys = 2_000;
        java.util.concurrent.ConcurrentHashMap<Integer, Long> earliestDue = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicInteger early = new java.util.concurrent.atomic.AtomicInteger();
        java.util.Set<Integer> arrived = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Thread consumer = new Thread(() -> {
            try {
                Integer k;
                while ((k = q.take()) != null) {
                    long now = System.nanoTime();
                    Long due = earliestDue.get(k);
                    if (due == null || now - due < 0) {
                        early.incrementAndGet();
                    }
                    arrived.add(k);
                    q.done(k);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        consumer.start();
        java.util.List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            int seed = p;
            Thread t = new Thread(() -> {
                java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
                for (int i = 0; i < 5_000; i++) {
                    int key = random.nextInt(keys);
                    long delayNanos = random.nextLong(1, 30_000_000L);
                    // Record the due time before adding, and never later than the queue's own: a key arriving
                    // before this is early for sure.
                    earliestDue.merge(key, System.nanoTime() + delayNanos, Math::min);
                    q.addAfter(key, Duration.ofNanos(delayNanos));
                    if (i % 500 == 0) {
                        Thread.yield();
                    }
                }
            });
            t.start();
            producers.add(t);
        }
        for (Thread t : producers) {
            t.join();
        }
        waitUntil(() -> arrived.size() == earliestDue.size(), "every delayed key arrived");
        q.shutDown();
        consumer.join(TimeUnit.SECONDS.toMillis(60));
        assertEquals(0, early.get(), "keys handed out before their due time");
    }

    @Test
    void addRateLimitedBacksOffPerKeyUntilForgotten() throws Exception {
        WorkQueue<String> q = WorkQueue.<String>builder("limited").ticker(ticker).manualDelays()
                .rateLimiter(new ItemExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1)))
                .build();
        queues.add(q);
        q.addRateLimited("a");
        q.addRateLimited("a");   // second failure asks for 10 ms; the 5 ms due time already waiting wins
        assertEquals(2, q.numRequeues("a"));
        ticker.advance(Duration.ofMillis(5));
        assertEquals(1, q.releaseDueDelayed());
        assertEquals("a", q.poll());
        q.done("a");
        q.addRateLimited("a");   // third failure: 20 ms
        ticker.advance(Duration.ofMillis(19));
        assertEquals(0, q.releaseDueDelayed());
        ticker.advance(Duration.ofMillis(1));
        assertEquals(1, q.releaseDueDelayed());
        q.forget("a");
        assertEquals(0, q.numRequeues("a"));
        waitUntil(() -> q.len() == 1, "the key is queued");
    }
}
