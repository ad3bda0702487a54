package dev.kruisevertx.agent.imagepuller;

import dev.kruisevertx.queue.BucketRateLimiter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Writes the NodeImage status at most {@code qps} times a second (burst {@code burst}; kruise-daemon's 0.5 and 5),
 * one write at a time, each with the latest status: requests while a write waits or runs become one more write
 * afterwards. A failed write is tried again after a second. Used from one Vert.x context only.
 *
 * @param <T> what is written
 */
final class StatusWriter<T> {
    public static final double QPS = 0.5;
    public static final int BURST = 5;

    /** Writes one status; completes when the API server has it. */
    interface Write<T> {
        Future<Void> write(T status);
    }

    private final Vertx vertx;
    private final BucketRateLimiter<String> limiter;
    private final Supplier<T> latest;
    private final Write<T> write;
    private boolean busy;
    private boolean again;
    private boolean stopped;
    private int writes;

    StatusWriter(Vertx vertx, double qps, int burst, Supplier<T> latest, Write<T> write) {
        this.vertx = vertx;
        this.limiter = new BucketRateLimiter<>(qps, burst);
        this.latest = latest;
        this.write = write;
    }

    void request() {
        if (stopped) {
            return;
        }
        if (busy) {
            again = true;
            return;
        }
        busy = true;
        Duration wait = limiter.when("status");
        if (wait.isZero() || wait.isNegative()) {
            go();
        } else {
            vertx.setTimer(Math.max(1, wait.toMillis()), t -> go());
        }
    }

    private void go() {
        if (stopped) {
            busy = false;
            return;
        }
        again = false;
        Future<Void> f;
        try {
            f = write.write(latest.get());
        } catch (RuntimeException e) {
            f = Future.failedFuture(e);
        }
        f.onComplete(ar -> {
            busy = false;
            if (ar.succeeded()) {
                writes++;
                if (again) {
                    request();
                }
            } else if (!stopped) {
                vertx.setTimer(1000, t -> request());
            }
        });
    }

    void stop() {
        stopped = true;
    }

    /** Completed writes (tests, metrics). */
    int writes() {
        return writes;
    }
}
