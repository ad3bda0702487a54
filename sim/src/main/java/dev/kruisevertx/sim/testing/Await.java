package dev.kruisevertx.sim.testing;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/**
 * Waiting for a condition in tests, with a generous timeout instead of fixed sleeps. A timeout fails with the
 * description and the last observed state (or the last exception), so the failure explains itself.
 */
public final class Await {
    private static final long POLL_MS = 50;

    private Await() {
    }

    /** Waits until {@code condition} returns true. */
    public static void waitFor(String description, Duration timeout, Callable<Boolean> condition) {
        waitFor(description, timeout, condition, Boolean.TRUE::equals);
    }

    /**
     * Polls {@code probe} until {@code done} accepts its value and returns that value. The failure message shows
     * the last value {@code probe} returned.
     */
    public static <T> T waitFor(String description, Duration timeout, Callable<T> probe, Predicate<? super T> done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Object last = "<nothing observed yet>";
        while (true) {
            try {
                T value = probe.call();
                last = value;
                if (done.test(value)) {
                    return value;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + description, e);
            } catch (Exception | AssertionError e) {
                last = "exception " + e;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + description
                        + "; last observed: " + last);
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + description, e);
            }
        }
    }
}
