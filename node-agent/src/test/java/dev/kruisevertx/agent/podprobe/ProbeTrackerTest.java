package dev.kruisevertx.agent.podprobe;

import dev.kruisevertx.api.apps.v1alpha1.ProbeState;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Thresholds as OpenKruise's daemon worker applies them, and when a report changes. */
class ProbeTrackerTest {
    static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");

    @Test
    void unsetThresholdsReportEveryResult() {
        ProbeTracker t = new ProbeTracker(null, 0);
        assertTrue(t.record(ProbeResult.success("ok"), T0));
        assertEquals(ProbeState.SUCCEEDED, t.state());
        assertTrue(t.record(ProbeResult.failure("bad"), T0.plusSeconds(1)));
        assertEquals(ProbeState.FAILED, t.state());
        assertEquals(T0.plusSeconds(1), t.lastTransitionTime());
    }

    @Test
    void failureThresholdNeedsConsecutiveFailures() {
        ProbeTracker t = new ProbeTracker(1, 3);
        assertTrue(t.record(ProbeResult.success(""), T0));
        assertFalse(t.record(ProbeResult.failure("x"), T0.plusSeconds(1)));
        assertFalse(t.record(ProbeResult.failure("x"), T0.plusSeconds(2)));
        assertEquals(ProbeState.SUCCEEDED, t.state(), "two failures are below the threshold");
        assertTrue(t.record(ProbeResult.failure("x"), T0.plusSeconds(3)));
        assertEquals(ProbeState.FAILED, t.state());
    }

    @Test
    void aSuccessBetweenFailuresRestartsTheRun() {
        ProbeTracker t = new ProbeTracker(1, 2);
        t.record(ProbeResult.success(""), T0);
        assertFalse(t.record(ProbeResult.failure("x"), T0));
        assertFalse(t.record(ProbeResult.success(""), T0), "unchanged success is not a new report");
        assertFalse(t.record(ProbeResult.failure("x"), T0));
        assertTrue(t.record(ProbeResult.failure("x"), T0));
    }

    @Test
    void successThresholdDelaysTheFirstReport() {
        ProbeTracker t = new ProbeTracker(2, 1);
        assertFalse(t.record(ProbeResult.success(""), T0));
        assertNull(t.state());
        assertTrue(t.record(ProbeResult.success(""), T0));
        assertEquals(ProbeState.SUCCEEDED, t.state());
    }

    @Test
    void aNewMessageIsAReportButKeepsTheTransitionTime() {
        ProbeTracker t = new ProbeTracker(1, 1);
        t.record(ProbeResult.success("v1"), T0);
        assertFalse(t.record(ProbeResult.success("v1"), T0.plusSeconds(5)));
        assertTrue(t.record(ProbeResult.success("v2"), T0.plusSeconds(6)));
        assertEquals(T0, t.lastTransitionTime());
        assertEquals(T0.plusSeconds(6), t.lastProbeTime());
        assertEquals("v2", t.message());
    }

    @Test
    void longOutputIsBounded() {
        ProbeResult r = ProbeResult.failure("x".repeat(10_000));
        assertEquals(ProbeResult.MAX_MESSAGE, r.message().length());
    }
}
