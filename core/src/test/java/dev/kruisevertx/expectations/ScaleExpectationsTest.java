package dev.kruisevertx.expectations;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScaleExpectationsTest {
    private static final String KEY = "default/cs";
    private static final String LEAKAGE = "cloneset_scale_expectation_leakage";

    private ManualClock clock;
    private SimpleMeterRegistry registry;
    private ScaleExpectations expectations;

    @BeforeEach
    void setUp() {
        clock = new ManualClock();
        registry = new SimpleMeterRegistry();
        expectations = new ScaleExpectations(Duration.ofMinutes(5), clock, registry, LEAKAGE);
    }

    @Test
    void unknownKeyIsSatisfied() {
        ScaleExpectations.Satisfied s = expectations.satisfied(KEY);
        assertTrue(s.satisfied());
        assertEquals(Duration.ZERO, s.unsatisfiedFor());
        assertFalse(s.leaked());
        assertEquals(Map.of(), s.details());
    }

    @Test
    void pendingCreatesAndDeletesUntilObserved() {
        expectations.expectCreate(KEY, "cs-a");
        expectations.expectCreate(KEY, "cs-b");
        expectations.expectDelete(KEY, "cs-old");

        ScaleExpectations.Satisfied s = expectations.satisfied(KEY);
        assertFalse(s.satisfied());
        assertEquals(Set.of("cs-a", "cs-b"), s.details().get(ScaleAction.CREATE));
        assertEquals(Set.of("cs-old"), s.details().get(ScaleAction.DELETE));

        expectations.observeCreate(KEY, "cs-a");
        expectations.observeCreate(KEY, "cs-b");
        expectations.observeDelete(KEY, "cs-a"); // wrong action: ignored
        assertFalse(expectations.satisfied(KEY).satisfied());
        assertEquals(Map.of(ScaleAction.DELETE, Set.of("cs-old")), expectations.pending(KEY));

        expectations.observeDelete(KEY, "cs-old");
        assertTrue(expectations.satisfied(KEY).satisfied());
        assertEquals(Map.of(), expectations.pending(KEY));
    }

    @Test
    void observingUnexpectedNamesOrKeysChangesNothing() {
        expectations.observeCreate("other/key", "x");
        expectations.expectCreate(KEY, "cs-a");
        expectations.observeCreate(KEY, "cs-z");
        assertFalse(expectations.satisfied(KEY).satisfied());
        assertTrue(expectations.satisfied("other/key").satisfied());
    }

    @Test
    void unsatisfiedDurationStartsAtFirstCheck() {
        expectations.expectCreate(KEY, "cs-a");
        clock.advance(Duration.ofMinutes(2)); // time before the first check does not count
        assertEquals(Duration.ZERO, expectations.satisfied(KEY).unsatisfiedFor());
        clock.advance(Duration.ofSeconds(90));
        ScaleExpectations.Satisfied s = expectations.satisfied(KEY);
        assertFalse(s.satisfied());
        assertEquals(Duration.ofSeconds(90), s.unsatisfiedFor());
    }

    @Test
    void timeoutDropsTheExpectationAndCountsALeak() {
        expectations.expectCreate(KEY, "cs-a");
        assertFalse(expectations.satisfied(KEY).satisfied());
        clock.advance(Duration.ofMinutes(4).plusSeconds(59));
        assertFalse(expectations.satisfied(KEY).satisfied());
        clock.advance(Duration.ofSeconds(1));

        ScaleExpectations.Satisfied s = expectations.satisfied(KEY);
        assertTrue(s.satisfied());
        assertTrue(s.leaked());
        assertEquals(Duration.ofMinutes(5), s.unsatisfiedFor());
        assertEquals(Set.of("cs-a"), s.details().get(ScaleAction.CREATE));
        assertEquals(1.0, registry.get(LEAKAGE).tag("namespace", "default").tag("name", "cs").counter().count());

        // dropped: the next check is a plain satisfied one and the counter does not move
        ScaleExpectations.Satisfied after = expectations.satisfied(KEY);
        assertTrue(after.satisfied());
        assertFalse(after.leaked());
        assertEquals(1.0, registry.get(LEAKAGE).counter().count());
    }

    @Test
    void deleteForgetsAController() {
        expectations.expectDelete(KEY, "cs-a");
        expectations.delete(KEY);
        assertTrue(expectations.satisfied(KEY).satisfied());
    }

    @Test
    void badTimeoutIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new ScaleExpectations(Duration.ZERO, clock, registry, LEAKAGE));
    }

    @Test
    void concurrentExpectAndObserveBalance() throws Exception {
        int threads = 4;
        int perThread = 2_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            futures.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < perThread; i++) {
                    String name = "p-" + id + "-" + i;
                    expectations.expectCreate(KEY, name);
                    expectations.satisfied(KEY);
                    expectations.observeCreate(KEY, name);
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : futures) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertTrue(expectations.satisfied(KEY).satisfied());
        assertEquals(Map.of(), expectations.pending(KEY));
    }
}
