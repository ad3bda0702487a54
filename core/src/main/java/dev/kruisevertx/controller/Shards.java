package dev.kruisevertx.controller;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Which shards of the controllers' keys this replica holds ({@code --shards N}). A key belongs to the shard
 * {@link #shardOf(String, int) FNV-1a 32 of its namespace mod N}; keys of cluster-scoped objects (empty namespace)
 * belong to shard 0. The runtime enqueues only keys of held shards, drops the others when it takes them from a
 * queue, and the write fence refuses a reconcile's write when its key's shard is not held or its lease was last
 * renewed longer ago than the renew deadline (so a replica whose renewals stall stops writing before another
 * replica can take the lease, which needs the longer lease duration to pass).
 *
 * <p>With one shard (the default) every key is owned and the single leader lease is the fence, as before.
 */
public final class Shards {
    /** Event-bus address on which the manager publishes the shards it just won (a JSON array of shard numbers). */
    public static final String GAINED_ADDRESS = "kruise.shards.gained";
    /**
     * Event-bus address on which the manager publishes (an empty body) that the cluster-scoped keys became owned
     * after the namespaced keys of shard 0 ({@link #wholeCacheReady}): controllers queue them from the cache then.
     */
    public static final String CLUSTER_KEYS_OWNED_ADDRESS = "kruise.shards.cluster-keys-owned";

    private static final Shards SINGLE = new Shards(1, Long.MAX_VALUE, System::nanoTime);

    private final int count;
    private final long renewDeadlineNanos;
    private final LongSupplier nanoClock;
    /** Held shard to the nanoTime at which the request of its last successful renewal was sent. */
    private final ConcurrentHashMap<Integer, Long> renewedAt = new ConcurrentHashMap<>();
    /**
     * With a cache per shard: shards won whose objects the cache is still listing, each with the number of the win
     * (a shard lost and won again while its first fill runs must wait for the second).
     */
    private final ConcurrentHashMap<Integer, Long> awaitingCache = new ConcurrentHashMap<>();
    /**
     * With a cache per shard: the win of shard 0 whose cluster-scoped keys still wait for the kinds its holder caches
     * whole (every shard listed in); absent once they are owned or shard 0 is not held. Keyed by shard (only 0).
     */
    private final ConcurrentHashMap<Integer, Long> awaitingWholeCache = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong wins = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean cacheGate;

    public Shards(int count, long renewDeadlineNanos, LongSupplier nanoClock) {
        if (count < 1) {
            throw new IllegalArgumentException("shard count must be at least 1, got " + count);
        }
        this.count = count;
        this.renewDeadlineNanos = renewDeadlineNanos;
        this.nanoClock = nanoClock;
    }

    /** One shard: every key is owned; leadership is fenced by the single lease instead. */
    public static Shards single() {
        return SINGLE;
    }

    public int count() {
        return count;
    }

    public boolean sharded() {
        return count > 1;
    }

    /** FNV-1a 32 of the namespace's UTF-8 bytes, unsigned, mod {@code count}; the empty namespace is shard 0. */
    public static int shardOf(String namespace, int count) {
        if (count <= 1 || namespace == null || namespace.isEmpty()) {
            return 0;
        }
        return (int) (Integer.toUnsignedLong(fnv1a32(namespace.getBytes(StandardCharsets.UTF_8))) % count);
    }

    static int fnv1a32(byte[] data) {
        int hash = 0x811c9dc5;
        for (byte b : data) {
            hash ^= b & 0xff;
            hash *= 0x01000193;
        }
        return hash;
    }

    public int shardOf(Request request) {
        return shardOf(request.namespace(), count);
    }

    /**
     * Whether this replica reconciles the key: always with one shard, else when its shard is held (and, with
     * {@link #gateOnCache}, the cache holds the shard's objects; for a cluster-scoped key, every object of the kinds
     * the holder of shard 0 caches whole).
     */
    public boolean owns(Request request) {
        if (!sharded()) {
            return true;
        }
        int shard = shardOf(request);
        return renewedAt.containsKey(shard) && !awaitingCache.containsKey(shard)
                && !(request.namespace().isEmpty() && awaitingWholeCache.containsKey(shard));
    }

    /**
     * The cache keeps only the held shards' objects of some kinds: a shard just won is not owned until
     * {@link #cacheReady} says the cache holds its objects (a reconcile against a half-listed cache would see missing
     * pods and create them again), and the cluster-scoped keys of shard 0 not until {@link #wholeCacheReady} says the
     * kinds its holder caches whole hold every shard. Call before the election starts.
     */
    public void gateOnCache() {
        cacheGate = true;
    }

    /** The shards of {@code won} still waiting for the cache, with the number of their win (for {@link #cacheReady}). */
    public java.util.Map<Integer, Long> awaitingCache(Set<Integer> won) {
        java.util.Map<Integer, Long> out = new java.util.HashMap<>();
        for (int s : won) {
            Long win = awaitingCache.get(s);
            if (win != null) {
                out.put(s, win);
            }
        }
        return out;
    }

    /**
     * The cache holds the objects of these wins ({@link #awaitingCache}): the shards' namespaced keys are owned; shards
     * won again since stay waiting.
     */
    public void cacheReady(java.util.Map<Integer, Long> wins) {
        wins.forEach(awaitingCache::remove);
    }

    /**
     * The cache also holds every object of the kinds cached whole with shard 0, for these wins: the cluster-scoped
     * keys (shard 0) are owned too. A shard lost and won again since stays waiting for its new win.
     */
    public void wholeCacheReady(java.util.Map<Integer, Long> wins) {
        wins.forEach(awaitingCache::remove);
        wins.forEach(awaitingWholeCache::remove);
    }

    /** Whether keys of {@code shard} wait for the cache: none, only the cluster-scoped ones, or all of them. */
    public CacheWait cacheWait(int shard) {
        if (awaitingCache.containsKey(shard)) {
            return CacheWait.ALL_KEYS;
        }
        return awaitingWholeCache.containsKey(shard) ? CacheWait.CLUSTER_SCOPED_KEYS : CacheWait.NONE;
    }

    /** Which keys of a held shard still wait for the cache ({@link #cacheWait}). */
    public enum CacheWait {
        NONE, CLUSTER_SCOPED_KEYS, ALL_KEYS
    }

    /**
     * The per-shard write fence for a reconcile of {@code key} ({@code namespace/name} or a cluster-scoped name); a
     * write outside any reconcile ({@code key} null) needs some shard held.
     */
    public boolean mayWrite(String key) {
        if (!sharded()) {
            return true;
        }
        if (key == null) {
            return renewedAt.keySet().stream().anyMatch(this::fresh);
        }
        return fresh(shardOf(Request.parse(key)));
    }

    /** Whether {@code shard} is held and was renewed within the renew deadline. */
    public boolean fresh(int shard) {
        Long renewed = renewedAt.get(shard);
        return renewed != null && nanoClock.getAsLong() - renewed < renewDeadlineNanos;
    }

    public boolean holdsAny() {
        return !renewedAt.isEmpty();
    }

    public boolean holds(int shard) {
        return renewedAt.containsKey(shard);
    }

    /** The held shards, sorted. */
    public SortedSet<Integer> held() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(renewedAt.keySet()));
    }

    /** The elector acquired or renewed {@code shard} with a request sent at {@code sentAtNanos}. */
    public void renewed(int shard, long sentAtNanos) {
        checkRange(shard);
        if (cacheGate && !renewedAt.containsKey(shard)) {
            // Before the shard counts as held, so no key of it is taken in between.
            long win = wins.incrementAndGet();
            if (shard == 0) {
                // Cluster-scoped keys (all in shard 0) may read a kind cached whole: they wait for every shard of it.
                awaitingWholeCache.put(shard, win);
            }
            awaitingCache.put(shard, win);
        }
        renewedAt.put(shard, sentAtNanos);
    }

    /** The elector lost or gave up {@code shard}: the fence drops at once. */
    public void dropped(int shard) {
        renewedAt.remove(shard);
        awaitingCache.remove(shard);
        awaitingWholeCache.remove(shard);
    }

    /** Drops every shard (the manager closes). */
    public void dropAll() {
        renewedAt.clear();
        awaitingCache.clear();
        awaitingWholeCache.clear();
    }

    /** Whether {@code request}'s shard is one of {@code shards}. */
    public boolean in(Request request, Set<Integer> shards) {
        return shards.contains(shardOf(request));
    }

    private void checkRange(int shard) {
        if (shard < 0 || shard >= count) {
            throw new IllegalArgumentException("shard " + shard + " out of range 0.." + (count - 1));
        }
    }
}
