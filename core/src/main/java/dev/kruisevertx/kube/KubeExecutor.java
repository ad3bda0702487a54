package dev.kruisevertx.kube;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;

import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

/**
 * Runs blocking fabric8 calls on a dedicated worker pool, so that no event loop ever waits on the API server.
 *
 * <p>Writes go through {@link #write}, which refuses to run once the process has lost leadership: a controller
 * that is being stopped must not write anything after the lease is gone, even if a reconcile was mid-flight.
 */
public final class KubeExecutor implements AutoCloseable {
    /** The error a write gets when the fence is down. */
    public static final class NotLeaderException extends IllegalStateException {
        public NotLeaderException() {
            super("write refused: this manager is not the leader (lease lost or not yet acquired)");
        }
    }

    private final WorkerExecutor pool;
    private final BooleanSupplier writesAllowed;

    public KubeExecutor(Vertx vertx, String poolName, int size, BooleanSupplier writesAllowed) {
        this.pool = vertx.createSharedWorkerExecutor(poolName, size);
        this.writesAllowed = writesAllowed;
    }

    public KubeExecutor(Vertx vertx, String poolName, int size) {
        this(vertx, poolName, size, () -> true);
    }

    /** A read or any call that is safe whether or not this process leads. Calls run in parallel, unordered. */
    public <T> Future<T> call(Callable<T> blocking) {
        return pool.executeBlocking(blocking, false);
    }

    /** A write on behalf of a controller: checked against the leadership fence both before and when it runs. */
    public <T> Future<T> write(Callable<T> blocking) {
        if (!writesAllowed.getAsBoolean()) {
            return Future.failedFuture(new NotLeaderException());
        }
        return pool.executeBlocking(() -> {
            if (!writesAllowed.getAsBoolean()) {
                throw new NotLeaderException();
            }
            return blocking.call();
        }, false);
    }

    @Override
    public void close() {
        pool.close();
    }
}
