package dev.kruisevertx.queue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Per-item exponential backoff: the n-th retry of an item (counting from zero) waits {@code baseDelay * 2^n},
 * never more than {@code maxDelay}. Each item has its own failure count until {@link #forget} clears it.
 */
public final class ItemExponentialFailureRateLimiter<K> implements RateLimiter<K> {

    private final long baseNanos;
    private final Duration maxDelay;
    private final long maxNanos;
    private final Map<K, Integer> failures = new HashMap<>();

    public ItemExponentialFailureRateLimiter(Duration baseDelay, Duration maxDelay) {
        Objects.requireNonNull(baseDelay, "baseDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        if (baseDelay.isNegative() || maxDelay.isNegative()) {
            throw new IllegalArgumentException("rate limiter delays must not be negative: base=" + baseDelay
                    + " max=" + maxDelay);
        }
        if (maxDelay.compareTo(baseDelay) < 0) {
            throw new IllegalArgumentException("rate limiter max delay " + maxDelay
                    + " is smaller than the base delay " + baseDelay);
        }
        this.baseNanos = saturatedNanos(baseDelay);
        this.maxDelay = maxDelay;
        this.maxNanos = saturatedNanos(maxDelay);
    }

    @Override
    public Duration when(K item) {
        int exp;
        synchronized (failures) {
            Integer previous = failures.get(item);
            exp = previous == null ? 0 : previous;
            // Saturate the counter: past 2^63 the delay is capped anyway.
            failures.put(item, exp == Integer.MAX_VALUE ? exp : exp + 1);
        }
        // Computed in double so a large exponent overflows to "too big" instead of wrapping around.
        double backoff = baseNanos * Math.pow(2, exp);
        if (backoff >= maxNanos) {
            return maxDelay;
        }
        return Duration.ofNanos((long) backoff);
    }

    @Override
    public void forget(K item) {
        synchronized (failures) {
            failures.remove(item);
        }
    }

    @Override
    public int numRequeues(K item) {
        synchronized (failures) {
            Integer n = failures.get(item);
            return n == null ? 0 : n;
        }
    }

    static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
