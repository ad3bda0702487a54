package dev.kruisevertx.queue;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The spin-before-park stops while spinners lose their CPU, and resumes after the pause. */
class SpinBackoffTest {

    private static final long T0 = 1_000_000_000L;

    @Test
    void aSpinnerThatKeepsItsCpuKeepsSpinning() {
        SpinBackoff b = new SpinBackoff();
        assertTrue(b.maySpin(T0));
        assertTrue(b.stillOnCpu(T0, T0 + 1_000));
        assertTrue(b.stillOnCpu(T0, T0 + SpinBackoff.DESCHEDULED_NANOS), "a gap of exactly the limit is not a loss");
        assertTrue(b.maySpin(T0 + 2_000));
        assertEquals(0, b.pauses());
    }

    @Test
    void aSpinnerThatLostItsCpuPausesSpinningForEveryTakerThenItResumes() {
        SpinBackoff b = new SpinBackoff();
        long lost = T0 + SpinBackoff.DESCHEDULED_NANOS + 1;
        assertFalse(b.stillOnCpu(T0, lost));
        assertEquals(1, b.pauses());
        assertFalse(b.maySpin(lost + 1));
        assertFalse(b.maySpin(lost + SpinBackoff.PAUSE_NANOS - 1));
        assertTrue(b.maySpin(lost + SpinBackoff.PAUSE_NANOS));
        assertTrue(b.maySpin(lost + SpinBackoff.PAUSE_NANOS + 1), "the pause is over until the next loss");
    }

    @Test
    void clockValuesNearOverflowCompareByDifference() {
        SpinBackoff b = new SpinBackoff();
        long nearMax = Long.MAX_VALUE - 10;
        assertFalse(b.stillOnCpu(nearMax, nearMax + SpinBackoff.DESCHEDULED_NANOS + 1), "wraps past MAX_VALUE");
        assertFalse(b.maySpin(nearMax + SpinBackoff.DESCHEDULED_NANOS + 2));
    }

    @Test
    void withoutBackoffNoGapPausesTheSpin() {
        SpinBackoff b = new SpinBackoff(Long.MAX_VALUE);
        assertTrue(b.stillOnCpu(T0, T0 + 60_000_000_000L));
        assertTrue(b.maySpin(T0 + 60_000_000_001L));
        assertEquals(0, b.pauses());
    }
}
