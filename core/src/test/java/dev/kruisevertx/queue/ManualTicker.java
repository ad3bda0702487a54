package dev.kruisevertx.queue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker that moves only when the test says so. Starts far from zero to catch code assuming small values. */
final class ManualTicker implements Ticker {

    private final AtomicLong now = new AtomicLong(1_000_000_000_000L);

    @Override
    public long nanoTime() {
        return now.get();
    }

    void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }
}
