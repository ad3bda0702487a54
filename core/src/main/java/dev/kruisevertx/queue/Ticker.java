package dev.kruisevertx.queue;

/**
 * A monotonic nanosecond time source. The queue and the token bucket read time only through this, so tests can
 * drive delays and refills deterministically instead of sleeping.
 */
@FunctionalInterface
public interface Ticker {

    /** Current reading in nanoseconds; only differences between readings are meaningful. */
    long nanoTime();

    /** The JVM's monotonic clock. */
    static Ticker system() {
        return System::nanoTime;
    }
}
