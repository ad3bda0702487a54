package dev.kruisevertx.queue;

import java.time.Duration;

/**
 * Decides how long an item must wait before it is retried. Limiters are small values that compose
 * (see {@link MaxOfRateLimiter}); a {@link WorkQueue} consults one on {@link WorkQueue#addRateLimited}.
 *
 * @param <K> the item (key) type
 */
public interface RateLimiter<K> {

    /** Records one more retry of {@code item} and returns how long it should wait; never negative. */
    Duration when(K item);

    /** Drops what the limiter remembers about {@code item} (call after a success). */
    void forget(K item);

    /** How many times {@code item} has been rate limited since it was last forgotten. */
    int numRequeues(K item);
}
