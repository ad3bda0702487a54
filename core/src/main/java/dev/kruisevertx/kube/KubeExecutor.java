package dev.kruisevertx.kube;

import dev.kruisevertx.controller.ReconcileContext;
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
    public static class NotLeaderException extends IllegalStateException {
        public NotLeaderException() {
            super("write refused: this manager is not the leader (lease lost or not yet acquired)");
        }

        protected NotLeaderException(String message) {
            super(message);
        }
    }

    /** The error a reconcile's write gets when its key's shard lease is not held ({@code --shards}). */
    public static final class ShardNotHeldException extends NotLeaderException {
        public ShardNotHeldException(String key) {
            super("write refused: this manager does not hold the lease of the shard of " + key
                    + " (lost, past its renew deadline, or not yet acquired)");
        }
    }

    /**
     * Decides whether a write may go out now: {@code reconcileKey} is the key of the reconcile making it (from its
     * {@link ReconcileContext}), or null for a write outside a reconcile. With {@code --shards} the answer depends on
     * the key's shard.
     */
    @FunctionalInterface
    public interface WriteFence {
        boolean allows(String reconcileKey);
    }

    private final WorkerExecutor pool;
    private final WriteFence fence;
    /** Whether the fence is per key (shards), which changes what a refusal says. */
    private final boolean perKey;

    public KubeExecutor(Vertx vertx, String poolName, int size, BooleanSupplier writesAllowed) {
        this(vertx, poolName, size, key -> writesAllowed.getAsBoolean(), false);
    }

    /** A write fence per reconcile key ({@code --shards}). */
    public KubeExecutor(Vertx vertx, String poolName, int size, WriteFence fence) {
        this(vertx, poolName, size, fence, true);
    }

    private KubeExecutor(Vertx vertx, String poolName, int size, WriteFence fence, boolean perKey) {
        this.pool = vertx.createSharedWorkerExecutor(poolName, size);
        this.fence = fence;
        this.perKey = perKey;
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
        // Taken on the caller's context: the reconcile making the write (its key decides the shard).
        ReconcileContext reconcile = ReconcileContext.current();
        String key = reconcile == null ? null : reconcile.key();
        if (!fence.allows(key)) {
            return Future.failedFuture(refusal(key));
        }
        return pool.executeBlocking(() -> {
            if (!fence.allows(key)) {
                throw refusal(key);
            }
            return blocking.call();
        }, false);
    }

    private NotLeaderException refusal(String key) {
        return perKey && key != null ? new ShardNotHeldException(key) : new NotLeaderException();
    }

    @Override
    public void close() {
        pool.close();
    }
}
