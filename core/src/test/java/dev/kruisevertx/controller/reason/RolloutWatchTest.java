package dev.kruisevertx.controller.reason;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a rollout counts as stuck: blocked with no progress for its deadline; intended holds never count. */
class RolloutWatchTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Duration DEADLINE = Duration.ofSeconds(600);
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final RolloutWatch watch = new RolloutWatch("CloneSet", registry);
    final List<BlockReason> blocked = List.of(Reasons.maxUnavailable("updateStrategy.maxUnavailable", 1,
            List.of("web-a"), 1, 2, "updated"), Reasons.partition("updateStrategy.partition", 1, 1));

    double gauge(String reason) {
        var g = registry.find(RolloutWatch.METRIC).tag("name", "web").tag("reason", reason).gauge();
        return g == null ? -1 : g.value();
    }

    @Test
    void stuckOnceAtTheDeadlineThenClearedByProgress() {
        RolloutWatch.Verdict first = watch.observe("ns", "web", "3/2/2/1/1", blocked, DEADLINE, T0);
        assertFalse(first.becameStuck());
        assertEquals(DEADLINE, first.recheckIn());
        assertEquals(Duration.ofSeconds(100), watch.observe("ns", "web", "3/2/2/1/1", blocked, DEADLINE,
                T0.plusSeconds(500)).recheckIn());

        RolloutWatch.Verdict stuck = watch.observe("ns", "web", "3/2/2/1/1", blocked, DEADLINE, T0.plusSeconds(600));
        assertTrue(stuck.becameStuck());
        assertEquals("rollout has not progressed for 600s: MaxUnavailable: updateStrategy.maxUnavailable 1 reached: "
                + "1 unavailable now (web-a); 2 pods wait to be updated", stuck.message());
        assertEquals(1.0, gauge("MaxUnavailable"));
        assertEquals(-1, gauge("Partition"), "a partition is what the user asked for");
        assertFalse(watch.observe("ns", "web", "3/2/2/1/1", blocked, DEADLINE, T0.plusSeconds(700)).becameStuck(),
                "one Event per stuck period");

        // Progress: the clock starts again and the series goes.
        RolloutWatch.Verdict moved = watch.observe("ns", "web", "3/3/3/2/2", blocked, DEADLINE, T0.plusSeconds(710));
        assertFalse(moved.becameStuck());
        assertEquals(-1, gauge("MaxUnavailable"));
    }

    @Test
    void intendedHoldsAloneAreNeverStuck() {
        List<BlockReason> intended = List.of(Reasons.paused("updateStrategy.paused", 3));
        RolloutWatch.Verdict v = watch.observe("ns", "web", "p", intended, DEADLINE, T0);
        assertEquals(Duration.ZERO, v.recheckIn());
        assertFalse(watch.observe("ns", "web", "p", intended, DEADLINE, T0.plusSeconds(6000)).becameStuck());
        assertNull(registry.find(RolloutWatch.METRIC).gauge());
    }

    @Test
    void aGoneWorkloadLosesItsSeries() {
        watch.observe("ns", "web", "p", blocked, DEADLINE, T0);
        watch.observe("ns", "web", "p", blocked, DEADLINE, T0.plusSeconds(601));
        assertEquals(1.0, gauge("MaxUnavailable"));
        watch.forget("ns", "web");
        assertNull(registry.find(RolloutWatch.METRIC).gauge());
    }
}
