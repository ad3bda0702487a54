package dev.kruisevertx.queue;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RateLimiterTest {

    @Test
    void exponentialDoublesPerFailureAndIsCapped() {
        var limiter = new ItemExponentialFailureRateLimiter<String>(Duration.ofMillis(5), Duration.ofSeconds(1));
        long[] expectedMillis = {5, 10, 20, 40, 80, 160, 320, 640, 1000, 1000};
        for (long ms : expectedMillis) {
            assertEquals(Duration.ofMillis(ms), limiter.when("a"));
        }
        assertEquals(expectedMillis.length, limiter.numRequeues("a"));
        // Items are tracked separately.
        assertEquals(Duration.ofMillis(5), limiter.when("b"));
        assertEquals(1, limiter.numRequeues("b"));
    }

    @Test
    void exponentialForgetStartsOver() {
        var limiter = new ItemExponentialFailureRateLimiter<String>(Duration.ofMillis(1), Duration.ofSeconds(10));
        limiter.when("a");
        limiter.when("a");
        assertEquals(2, limiter.numRequeues("a"));
        limiter.forget("a");
        assertEquals(0, limiter.numRequeues("a"));
        assertEquals(Duration.ofMillis(1), limiter.when("a"));
    }

    @Test
    void exponentialNeverOverflowsPastTheCap() {
        var limiter = new ItemExponentialFailureRateLimiter<String>(Duration.ofMillis(5), Duration.ofSeconds(1000));
        Duration last = Duration.ZERO;
        for (int i = 0; i < 200; i++) {
            last = limiter.when("a");
            assertTrue(!last.isNegative() && last.compareTo(Duration.ofSeconds(1000)) <= 0, "delay " + last);
        }
        assertEquals(Duration.ofSeconds(1000), last);
    }

    @Test
    void exponentialRejectsBadDelays() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> new ItemExponentialFailureRateLimiter<String>(Duration.ofSeconds(2), Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("smaller than the base delay"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new ItemExponentialFailureRateLimiter<String>(Duration.ofSeconds(-1), Duration.ofSeconds(1)));
    }

    @Test
    void bucketAllowsBurstThenSpacesAtQps() {
        ManualTicker ticker = new ManualTicker();
        var limiter = new BucketRateLimiter<String>(10, 100, ticker);
        for (int i = 0; i < 100; i++) {
            assertEquals(Duration.ZERO, limiter.when("k" + i), "token " + i + " is within the burst");
        }
        // The bucket is empty: each further reservation waits one more 1/qps.
        assertEquals(Duration.ofMillis(100), limiter.when("x"));
        assertEquals(Duration.ofMillis(200), limiter.when("y"));
        assertEquals(Duration.ofMillis(300), limiter.when("z"));
        // 1 s refills 10 tokens, which pays the 3 owed and leaves 7.
        ticker.advance(Duration.ofSeconds(1));
        for (int i = 0; i < 7; i++) {
            assertEquals(Duration.ZERO, limiter.when("r" + i));
        }
        assertEquals(Duration.ofMillis(100), limiter.when("r7"));
    }

    @Test
    void bucketRefillIsCappedAtBurst() {
        ManualTicker ticker = new ManualTicker();
        var limiter = new BucketRateLimiter<String>(1, 3, ticker);
        ticker.advance(Duration.ofHours(1));
        for (int i = 0; i < 3; i++) {
            assertEquals(Duration.ZERO, limiter.when("a"));
        }
        assertEquals(Duration.ofSeconds(1), limiter.when("a"));
        assertEquals(0, limiter.numRequeues("a"));
    }

    @Test
    void bucketRejectsBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> new BucketRateLimiter<String>(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new BucketRateLimiter<String>(Double.NaN, 10));
        var e = assertThrows(IllegalArgumentException.class, () -> new BucketRateLimiter<String>(10, 0));
        assertTrue(e.getMessage().contains("bucket size"), e.getMessage());
    }

    @Test
    void maxOfTakesTheLongestDelayAndForgetsEverywhere() {
        ManualTicker ticker = new ManualTicker();
        var exp = new ItemExponentialFailureRateLimiter<String>(Duration.ofMillis(1), Duration.ofSeconds(1));
        var bucket = new BucketRateLimiter<String>(1, 2, ticker);
        var max = new MaxOfRateLimiter<>(exp, bucket);
        assertEquals(Duration.ofMillis(1), max.when("a"));   // bucket has tokens; exponential wins
        assertEquals(Duration.ofMillis(2), max.when("a"));
        assertEquals(Duration.ofSeconds(1), max.when("a"));  // bucket empty: its 1 s wins over 4 ms
        assertEquals(3, max.numRequeues("a"));
        max.forget("a");
        assertEquals(0, max.numRequeues("a"));
        assertEquals(0, exp.numRequeues("a"));
    }

    @Test
    void controllerDefaultUsesOpenKruiseFlagDefaults() {
        RateLimiter<String> limiter = RateLimiters.controllerDefault();
        assertEquals(Duration.ofMillis(5), limiter.when("a"));
        assertEquals(Duration.ofMillis(10), limiter.when("a"));
        assertEquals(2, limiter.numRequeues("a"));
        assertEquals(Duration.ofMillis(5), RateLimiters.DEFAULT_BASE_DELAY);
        assertEquals(Duration.ofSeconds(1000), RateLimiters.DEFAULT_MAX_DELAY);
        assertEquals(10.0, RateLimiters.DEFAULT_QPS);
        assertEquals(100, RateLimiters.DEFAULT_BUCKET_SIZE);
    }

    @Test
    void controllerDefaultBucketLimitsAStormOfDistinctItems() {
        RateLimiter<String> limiter = RateLimiters.controllerDefault(
                Duration.ofMillis(5), Duration.ofSeconds(1000), 10, 100);
        Duration last = Duration.ZERO;
        for (int i = 0; i < 110; i++) {
            last = limiter.when("item-" + i);
        }
        // The 110th distinct item owes 10 tokens at 10/s: about one second, far above the 5 ms base delay.
        assertTrue(last.compareTo(Duration.ofMillis(500)) > 0 && last.compareTo(Duration.ofMillis(1100)) < 0,
                "delay " + last);
    }
}
