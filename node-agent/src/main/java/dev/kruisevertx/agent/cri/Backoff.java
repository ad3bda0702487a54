package dev.kruisevertx.agent.cri;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Exponential back-off between attempts: {@code initial}, then times {@code factor}, never above
 * {@code max}. The node agent retries an unreachable runtime with it instead of giving up.
 */
public record Backoff(Duration initial, Duration max, double factor) {
    private static final Logger LOG = LoggerFactory.getLogger(Backoff.class);

    /** 1 s doubling up to 30 s, the bounds OpenKruise's daemon uses for its retries. */
    public static final Backoff DEFAULT = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 2.0);

    public Backoff {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0 || factor < 1.0) {
            throw new IllegalArgumentException("bad backoff: initial " + initial + ", max " + max + ", factor " + factor);
        }
    }

    /** The wait before retry number {@code attempt} (0 = the wait after the first failure). */
    public Duration delay(int attempt) {
        double millis = initial.toMillis() * Math.pow(factor, Math.max(0, attempt));
        return millis >= max.toMillis() ? max : Duration.ofMillis((long) millis);
    }

    /**
     * Runs {@code action} until it succeeds, a failure is not {@code retryable}, or {@code maxAttempts}
     * attempts failed (0: no limit). Each failure is logged with what was being tried and the next wait.
     */
    public <T> Future<T> retry(Vertx vertx, String what, Supplier<Future<T>> action,
                               Predicate<Throwable> retryable, int maxAttempts) {
        Promise<T> promise = Promise.promise();
        attempt(vertx, what, action, retryable, maxAttempts, 0, promise);
        return promise.future();
    }

    private <T> void attempt(Vertx vertx, String what, Supplier<Future<T>> action, Predicate<Throwable> retryable,
                             int maxAttempts, int done, Promise<T> promise) {
        Future<T> result;
        try {
            result = action.get();
        } catch (RuntimeException e) {
            result = Future.failedFuture(e);
        }
        result.onSuccess(promise::complete).onFailure(err -> {
            int attempts = done + 1;
            if (!retryable.test(err) || maxAttempts > 0 && attempts >= maxAttempts) {
                promise.fail(err);
                return;
            }
            Duration wait = delay(done);
            LOG.warn("{} failed (attempt {}), retrying in {} ms: {}", what, attempts, wait.toMillis(), err.getMessage());
            try {
                vertx.setTimer(Math.max(1, wait.toMillis()),
                        id -> attempt(vertx, what, action, retryable, maxAttempts, attempts, promise));
            } catch (RuntimeException closing) {
                // Vert.x is shutting down: report the last real failure, not the timer's.
                promise.fail(err);
            }
        });
    }
}
