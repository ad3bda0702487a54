package dev.kruisevertx.queue;

import java.time.Duration;

/**
 * One token bucket shared by all items: {@code burst} tokens, refilled at {@code qps} per second. Every
 * {@link #when} takes a token by reservation: when the bucket is empty it goes into debt and the caller waits
 * until its token would have been refilled, so a storm of retries is spread out at {@code qps}.
 * Items are not tracked individually: {@link #forget} does nothing and {@link #numRequeues} is always 0.
 */
public final class BucketRateLimiter<K> implements RateLimiter<K> {

    private static final double NANOS_PER_SECOND = 1e9;

    private final double qps;
    private final int burst;
    private final Ticker ticker;
    private double tokens;
    private long last;

    public BucketRateLimiter(double qps, int burst) {
        this(qps, burst, Ticker.system());
    }

    /** With an explicit time source, for tests. */
    public BucketRateLimiter(double qps, int burst, Ticker ticker) {
        if (!(qps > 0)) {
            throw new IllegalArgumentException("rate limiter qps must be positive, got " + qps);
        }
        if (burst < 1) {
            throw new IllegalArgumentException("rate limiter bucket size must be at least 1, got " + burst);
        }
        this.qps = qps;
        this.burst = burst;
        this.ticker = java.util.Objects.requireNonNull(ticker, "ticker");
        this.tokens = burst;
        this.last = ticker.nanoTime();
    }

    @Override
    public Duration when(K item) {
        if (Double.isInfinite(qps)) {
            return Duration.ZERO;
        }
        double debt;
        synchronized (this) {
            long now = ticker.nanoTime();
            long elapsed = now - last;
            if (elapsed > 0) {
                tokens = Math.min(burst, tokens + elapsed / NANOS_PER_SECOND * qps);
                last = now;
            }
            tokens -= 1;
            debt = -tokens;
        }
        if (debt <= 0) {
            return Duration.ZERO;
        }
        return Duration.ofNanos((long) Math.ceil(debt / qps * NANOS_PER_SECOND));
    }

    @Override
    public void forget(K item) {
        // The bucket is shared; there is nothing per item to forget.
    }

    @Override
    public int numRequeues(K item) {
        return 0;
    }

    public double qps() {
        return qps;
    }

    public int burst() {
        return burst;
    }
}
