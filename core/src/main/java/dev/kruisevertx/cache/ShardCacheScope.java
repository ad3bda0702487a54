package dev.kruisevertx.cache;

import dev.kruisevertx.controller.Shards;
import io.fabric8.kubernetes.api.model.HasMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Which namespaces a replica caches for the kinds cached per shard ({@code --shards N}): the objects of the shards it
 * holds, and of every shard for a kind marked "whole with shard 0" while it holds shard 0 (the cluster-scoped
 * controllers' keys are in shard 0, and some of them read that kind in every namespace). Every other kind is cached
 * whole. Register it with {@link WatchCache#cacheByShard} before the kinds' informers are created.
 *
 * <p>{@link #gained} and {@link #lost} change the covered shards on a thread of their own (a gain lists the gained
 * shards' namespaces from the API server; the election thread must not wait for that) in the order they were called; each converges every
 * sharded kind to the shards held at that moment, so a loss followed quickly by a gain of the same shard ends with the
 * shard covered. A gain is filled in two stages ({@link #gained(Set, Runnable)}): first the held shards of every kind, then
 * the other shards of the kinds cached whole; the namespaced keys of a gained shard may be reconciled after the
 * first ({@link Shards#cacheReady}), the cluster-scoped keys only after the second ({@link Shards#wholeCacheReady}),
 * so a shard's own keys do not wait for a whole-cluster list.
 */
public final class ShardCacheScope implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShardCacheScope.class);
    private static final long RETRY_MILLIS = 1000;

    private record Sharded<T extends HasMetadata>(Class<T> type, ShardedItemStore<T> store,
                                                  NamespacedLister<T> lister,
                                                  boolean wholeWithShard0) {
    }

    private final int count;
    private final Map<Class<? extends HasMetadata>, Boolean> kinds;
    private final List<Sharded<?>> stores = new ArrayList<>();
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "shard-cache");
        t.setDaemon(true);
        return t;
    });
    /** The shards held as last told; written under this object's lock. */
    private volatile Set<Integer> held = Set.of();
    private volatile boolean closed;

    /**
     * @param count the shard count ({@code --shards})
     * @param kinds the kinds cached per shard, each with whether the holder of shard 0 caches it whole
     */
    public ShardCacheScope(int count, Map<Class<? extends HasMetadata>, Boolean> kinds) {
        if (count < 2) {
            throw new IllegalArgumentException("a shard cache scope needs at least 2 shards, got " + count);
        }
        this.count = count;
        this.kinds = Map.copyOf(kinds);
    }

    public int count() {
        return count;
    }

    /** Whether {@code type} is cached per shard. */
    public boolean filters(Class<?> type) {
        return kinds.containsKey(type);
    }

    /**
     * Whether this replica's cache holds every object of {@code type} in {@code namespace}: always for a kind cached
     * whole, else once the namespace's shard is covered and listed in.
     */
    public boolean caches(Class<?> type, String namespace) {
        Boolean whole = kinds.get(type);
        if (whole == null) {
            return true;
        }
        synchronized (this) {
            for (Sharded<?> s : stores) {
                if (s.type() == type) {
                    return s.store().holdsAll(namespace);
                }
            }
        }
        return target(held, whole).contains(Shards.shardOf(namespace, count));
    }

    /** The kinds cached per shard. */
    public Set<Class<? extends HasMetadata>> kinds() {
        return kinds.keySet();
    }

    private Set<Integer> target(Set<Integer> shards, boolean wholeWithShard0) {
        if (wholeWithShard0 && shards.contains(0)) {
            Set<Integer> all = new TreeSet<>();
            for (int s = 0; s < count; s++) {
                all.add(s);
            }
            return all;
        }
        return shards;
    }

    <T extends HasMetadata> void register(Class<T> type, ShardedItemStore<T> store, NamespacedLister<T> lister) {
        synchronized (this) {
            // Created before it starts: its first list brings what the shards held now cover.
            store.beginFill(target(held, kinds.get(type)));
            store.endFill();
            stores.add(new Sharded<>(type, store, lister, kinds.get(type)));
        }
    }

    /** The replica won {@code shards}; completes when the cache holds everything it covers now. */
    public CompletionStage<Void> gained(Set<Integer> shards) {
        return gained(shards, () -> {
        });
    }

    /**
     * The replica won {@code shards}. {@code ownCached} runs on the cache's thread once every sharded kind holds the
     * objects of the shards held, before the other shards of the kinds cached whole are listed; the returned stage
     * completes once those are listed too (a failure or close completes it exceptionally, and then {@code ownCached}
     * may not have run).
     */
    public CompletionStage<Void> gained(Set<Integer> shards, Runnable ownCached) {
        return change(shards, true, ownCached);
    }

    /** The replica lost {@code shards}; completes when their objects left the cache. */
    public CompletionStage<Void> lost(Set<Integer> shards) {
        return change(shards, false, () -> {
        });
    }

    private CompletionStage<Void> change(Set<Integer> shards, boolean gain, Runnable ownCached) {
        synchronized (this) {
            Set<Integer> next = new TreeSet<>(held);
            if (gain) {
                next.addAll(shards);
            } else {
                next.removeAll(shards);
            }
            held = Collections.unmodifiableSet(next);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            worker.execute(() -> {
                try {
                    // The held shards of every kind first: their namespaced keys need nothing more.
                    converge(false);
                    runOwnCached(ownCached);
                    converge(true);
                    done.complete(null);
                } catch (RuntimeException e) {
                    done.completeExceptionally(e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            done.completeExceptionally(new IllegalStateException("shard cache scope closed"));
        }
        return done;
    }

    private static void runOwnCached(Runnable ownCached) {
        try {
            ownCached.run();
        } catch (RuntimeException e) {
            // The caller's bug must not stop the cache from listing the rest.
            LOG.error("the listener of a shard's own objects cached failed", e);
        }
    }

    /** Converges every kind: to the held shards only ({@code whole} false), or to all it covers. */
    private void converge(boolean whole) {
        List<Sharded<?>> all;
        synchronized (this) {
            all = List.copyOf(stores);
        }
        for (Sharded<?> s : all) {
            converge(s, whole);
        }
        if (closed) {
            // Not converged: nobody may take the cache as holding the shards.
            throw new IllegalStateException("shard cache scope closed");
        }
    }

    private <T extends HasMetadata> void converge(Sharded<T> s, boolean whole) {
        while (!closed) {
            Set<Integer> shardsHeld = held;
            Set<Integer> target = target(shardsHeld, s.wholeWithShard0());
            // The held shards are part of every target; the rest of a whole kind waits for the second stage.
            Set<Integer> wanted = whole ? target : shardsHeld;
            Set<Integer> covered = s.store().covered();
            Set<Integer> drop = new TreeSet<>(covered);
            drop.removeAll(target);
            if (!drop.isEmpty()) {
                int dropped = s.store().drop(drop);
                LOG.info("cache of {}: shard(s) {} dropped ({} objects)", s.store().kind(), drop, dropped);
            }
            Set<Integer> add = new TreeSet<>(wanted);
            add.removeAll(covered);
            if (add.isEmpty()) {
                return;
            }
            // Listed even when the informer has not started yet; a list of the informer under way (which lists only what
            // was covered when it began) finishes first, see ShardListerWatcher.
            long started = System.nanoTime();
            Set<Integer> abandoned = new TreeSet<>();
            try {
                int added = s.store().fillFrom(add, s.lister(), shard -> stillWanted(shard, s, whole), abandoned);
                if (!abandoned.isEmpty()) {
                    // Lost while being listed: half-listed, so it must not stay covered; the next pass drops it and
                    // lists it again should it have been won back meanwhile.
                    int dropped = s.store().drop(abandoned);
                    LOG.info("cache of {}: fill of shard(s) {} stopped, no longer held ({} objects dropped)",
                            s.store().kind(), abandoned, dropped);
                    continue;
                }
                LOG.info("cache of {}: shard(s) {} filled with {} objects in {} ms", s.store().kind(), add, added,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
                return;
            } catch (RuntimeException e) {
                // Back to where it was (what the failed list added leaves again); retried while the shards are wanted.
                LOG.warn("cache of {}: listing shard(s) {} failed, retrying in {} ms: {}", s.store().kind(), add,
                        RETRY_MILLIS, e.toString());
                s.store().drop(add);
                sleep();
            }
        }
    }

    /** Whether {@code shard} is still to be cached for {@code s} in this stage (read while a fill runs). */
    private boolean stillWanted(int shard, Sharded<?> s, boolean whole) {
        Set<Integer> shardsHeld = held;
        return (whole ? target(shardsHeld, s.wholeWithShard0()) : shardsHeld).contains(shard);
    }

    private static void sleep() {
        try {
            Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        closed = true;
        worker.shutdownNow();
    }
}
