package dev.kruisevertx.queue;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Combines limiters by taking the longest delay any of them asks for. Every limiter is consulted on every
 * {@link #when}, so each keeps its own accounting (failure counts, bucket tokens) up to date.
 */
public final class MaxOfRateLimiter<K> implements RateLimiter<K> {

    private final List<RateLimiter<K>> limiters;

    @SafeVarargs
    public MaxOfRateLimiter(RateLimiter<K>... limiters) {
        Objects.requireNonNull(limiters, "limiters");
        if (limiters.length == 0) {
            throw new IllegalArgumentException("MaxOfRateLimiter needs at least one limiter");
        }
        for (RateLimiter<K> l : limiters) {
            Objects.requireNonNull(l, "a limiter passed to MaxOfRateLimiter is null");
        }
        this.limiters = List.of(limiters);
    }

    @Override
    public Duration when(K item) {
        Duration longest = Duration.ZERO;
        for (RateLimiter<K> l : limiters) {
            Duration d = l.when(item);
            if (d.compareTo(longest) > 0) {
                longest = d;
            }
        }
        return longest;
    }

    @Override
    public void forget(K item) {
        for (RateLimiter<K> l : limiters) {
            l.forget(item);
        }
    }

    @Override
    public int numRequeues(K item) {
        int most = 0;
        for (RateLimiter<K> l : limiters) {
            most = Math.max(most, l.numRequeues(item));
        }
        return most;
    }
}
