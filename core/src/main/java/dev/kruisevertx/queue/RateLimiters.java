package dev.kruisevertx.queue;

import java.time.Duration;

/** The rate limiter every controller uses, with OpenKruise's manager defaults. */
public final class RateLimiters {

    /** {@code --rate-limiter-base-delay}. */
    public static final Duration DEFAULT_BASE_DELAY = Duration.ofMillis(5);
    /** {@code --rate-limiter-max-delay}. */
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(1000);
    /** {@code --rate-limiter-qps}. */
    public static final double DEFAULT_QPS = 10;
    /** {@code --rate-limiter-bucket-size}. */
    public static final int DEFAULT_BUCKET_SIZE = 100;

    private RateLimiters() {
    }

    /**
     * Per-item exponential backoff from {@code base} to {@code max}, combined with one token bucket of
     * {@code qps} and {@code burst} for the whole queue: the longer of the two delays wins.
     */
    public static <K> RateLimiter<K> controllerDefault(Duration base, Duration max, double qps, int burst) {
        return new MaxOfRateLimiter<>(
                new ItemExponentialFailureRateLimiter<>(base, max),
                new BucketRateLimiter<>(qps, burst));
    }

    /** {@link #controllerDefault(Duration, Duration, double, int)} with OpenKruise's default flag values. */
    public static <K> RateLimiter<K> controllerDefault() {
        return controllerDefault(DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY, DEFAULT_QPS, DEFAULT_BUCKET_SIZE);
    }
}
