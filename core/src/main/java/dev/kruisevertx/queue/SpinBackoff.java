package dev.kruisevertx.queue;

/**
 * When a taker's spin-before-park may run. A spin only pays while the spinning thread has a core to itself; once
 * the OS takes the CPU away from a spinner mid-spin (a gap between two of its clock reads far longer than a loop
 * iteration), the machine has no free core, and spinning on would only take CPU from the threads that add keys
 * and make every hand-off later. Then takers park at once for a while before they try spinning again.
 *
 * <p>Shared by the queue's takers without a lock: a stale read only decides whether one take spins or parks.
 */
final class SpinBackoff {

    /** A gap between two clock reads of a spin loop longer than this means the spinner lost its CPU. */
    static final long DESCHEDULED_NANOS = 50_000;
    /** How long takers park without spinning after a spinner lost its CPU. */
    static final long PAUSE_NANOS = 100_000_000;

    private final long descheduledNanos;
    private volatile long pausedUntil;
    private volatile boolean paused;
    /** For tests and the benchmarks: how often a spinner lost its CPU and paused the spinning. */
    private volatile long pauses;

    SpinBackoff() {
        this(DESCHEDULED_NANOS);
    }

    /** For tests: {@code Long.MAX_VALUE} never pauses, so a test can hold a taker in its spin on a busy machine. */
    SpinBackoff(long descheduledNanos) {
        this.descheduledNanos = descheduledNanos;
    }

    /** Whether a take that finds the queue empty at {@code now} may spin. */
    boolean maySpin(long now) {
        if (!paused) {
            return true;
        }
        if (now - pausedUntil < 0) {
            return false;
        }
        paused = false;
        return true;
    }

    /**
     * Called by a spinning taker on each clock read; false (and spinning paused for every taker) when the gap
     * since its previous read says the OS descheduled it.
     */
    boolean stillOnCpu(long previousRead, long now) {
        if (now - previousRead <= descheduledNanos) {
            return true;
        }
        pausedUntil = now + PAUSE_NANOS;
        paused = true;
        pauses++;
        return false;
    }

    long pauses() {
        return pauses;
    }
}
