package dev.kruisevertx.cache;

import dev.kruisevertx.controller.Shards;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The item store of a kind cached per shard ({@link ShardCacheScope}): it keeps only objects whose namespace hashes
 * to one of the shards it covers, in front of the store that holds them (the {@link LeanItemStore} or a plain map).
 *
 * <p>Why the informer never sees a dropped object (fabric8 7.8's {@code CacheImpl} and {@code ProcessorStore}): the
 * cache calls {@link #put} under its own lock, then feeds the same object to every index function, and the processor
 * store raises an event unless {@code put} returned an old object of the same resourceVersion. For an object outside
 * the covered shards {@code put} stores nothing and returns the object itself, so no event is raised, and every index
 * function of the kind is wrapped by {@link #indexFunction} to index nothing for it: no index entry, no
 * {@code byIndex} answer, no handler event. A delete of a key never stored finds nothing and raises nothing; a relist
 * only ever deletes what is stored.
 *
 * <p>The covered set changes only under the cache's lock: losing a shard removes its objects through the cache (so
 * their index entries go too) before the set shrinks; gaining one grows the set, then {@link #fillFrom} lists the
 * gained shards' namespaces one by one and merges each listed object with what the watch said meanwhile.
 *
 * <p>Exactness against one watch (numeric resourceVersions): the namespaces are listed at different resourceVersions,
 * and the watch starts from the oldest, so it replays changes a later namespace list already holds. Each namespace
 * listed gets a mark (the resourceVersion of its list), and {@link #watching} drops, under the cache's lock, every
 * ADDED or MODIFIED of that namespace at or below its mark and every event older than the stored object of its key
 * (a DELETED: older than a stored newer incarnation): no older
 * state replaces a newer one, no replayed ADDED/DELETED pair shows a ghost, no replayed DELETE of an earlier
 * incarnation removes a re-created object. Marks are forgotten once the watch has passed them. An object or mark
 * whose resourceVersion is not a number is not compared: the watch's event is applied.
 */
final class ShardedItemStore<T extends HasMetadata> implements ItemStore<T> {
    private final String kind;
    private final int shardCount;
    private final ItemStore<T> delegate;
    /** Covered shards; written only under the cache's lock, read by index functions outside it too. */
    private volatile Set<Integer> covered = Set.of();
    private CacheImpl<T> cache;
    /** Shards being filled (written under the cache's lock). */
    private volatile Set<Integer> filling = Set.of();
    /** While filling: the resourceVersion of every delete the watch applied to a filling shard (guarded by the lock). */
    private Map<String, Long> deletedWhileFilling;
    /** While filling: the keys listed so far, and each listed namespace's mark (guarded by the lock). */
    private Set<String> listedWhileFilling;
    private Map<String, Long> marksWhileFilling;
    /** Namespace -> resourceVersion it was listed at, until the watch passes it (guarded by the cache's lock). */
    private final Map<String, Long> marks = new HashMap<>();
    private long lowestMark = Long.MAX_VALUE;
    /**
     * One list at a time: the informer's own list (from its first page until it starts its watch) and the fills. The
     * informer deletes whatever its list lacks, so a fill must not add objects while that list, taken before, is on.
     */
    private final Semaphore listing = new Semaphore(1);

    ShardedItemStore(String kind, int shardCount, ItemStore<T> delegate) {
        this.kind = kind;
        this.shardCount = shardCount;
        this.delegate = delegate;
    }

    /** The informer's cache; set once when the store is installed. */
    void attach(CacheImpl<T> cache) {
        this.cache = cache;
    }

    String kind() {
        return kind;
    }

    Set<Integer> covered() {
        return covered;
    }

    /** Whether the store holds every object of {@code namespace}'s shard (covered, and not being filled). */
    boolean holdsAll(String namespace) {
        int shard = Shards.shardOf(namespace, shardCount);
        return covered.contains(shard) && !filling.contains(shard);
    }

    boolean covers(String namespace) {
        return covered.contains(Shards.shardOf(namespace, shardCount));
    }

    boolean keeps(T obj) {
        return obj != null && obj.getMetadata() != null && covers(obj.getMetadata().getNamespace());
    }

    /** {@code fn} that indexes nothing for objects this store does not keep. */
    Function<T, List<String>> indexFunction(Function<T, List<String>> fn) {
        return obj -> keeps(obj) ? fn.apply(obj) : List.of();
    }

    @Override
    public String getKey(T obj) {
        return Cache.metaNamespaceKeyFunc(obj);
    }

    @Override
    public T put(String key, T obj) {
        if (!keeps(obj)) {
            // "Unchanged": the processor store raises no event for it and the indexes get nothing (see above).
            return obj;
        }
        return delegate.put(key, obj);
    }

    @Override
    public T remove(String key) {
        return delegate.remove(key);
    }

    @Override
    public Stream<String> keySet() {
        return delegate.keySet();
    }

    @Override
    public Stream<T> values() {
        return delegate.values();
    }

    @Override
    public int size() {
        return delegate.size();
    }

    @Override
    public T get(String key) {
        return delegate.get(key);
    }

    /** Stops covering {@code shards}: their objects leave the store and the indexes at once. Returns how many. */
    int drop(Set<Integer> shards) {
        synchronized (cache) {
            List<T> leaving = new ArrayList<>();
            delegate.values().forEach(obj -> {
                if (shards.contains(Shards.shardOf(obj.getMetadata().getNamespace(), shardCount))) {
                    leaving.add(obj);
                }
            });
            // Removed while still covered, so the index functions name the entries to take out.
            for (T obj : leaving) {
                cache.remove(obj);
            }
            Set<Integer> next = new TreeSet<>(covered);
            next.removeAll(shards);
            covered = Collections.unmodifiableSet(next);
            return leaving.size();
        }
    }

    /**
     * Starts covering {@code shards}: from now on the watch's objects of those shards are kept. Call {@link #fill}
     * with lists taken after this returned, then {@link #endFill}.
     */
    void beginFill(Set<Integer> shards) {
        synchronized (cache) {
            // Filling before covered: a reader of both (holdsAll) never takes a shard being filled as complete.
            filling = Set.copyOf(shards);
            deletedWhileFilling = new HashMap<>();
            listedWhileFilling = new HashSet<>();
            marksWhileFilling = new HashMap<>();
            Set<Integer> next = new TreeSet<>(covered);
            next.addAll(shards);
            covered = Collections.unmodifiableSet(next);
        }
    }

    /**
     * Merges one listed page of {@code namespace} (a namespace of a shard being filled) into the store; {@code mark}
     * is the resourceVersion of the namespace's list, given with its first page (null on later pages). A listed object
     * is added unless the watch holds a newer state of it or deleted it after the listed state. Returns how many
     * were added or replaced.
     */
    int fill(String namespace, String mark, List<T> listed) {
        int added = 0;
        synchronized (cache) {
            if (deletedWhileFilling == null
                    || !filling.contains(Shards.shardOf(namespace, shardCount))) {
                return 0;
            }
            if (mark != null) {
                long m = ResourceVersions.of(mark);
                marksWhileFilling.put(namespace, m);
                mark(namespace, m);
            }
            for (T obj : listed) {
                if (!namespace.equals(obj.getMetadata().getNamespace())) {
                    continue;
                }
                String key = getKey(obj);
                listedWhileFilling.add(key);
                long listedRv = ResourceVersions.of(obj);
                T stored = delegate.get(key);
                if (stored != null) {
                    long storedRv = ResourceVersions.of(stored);
                    // Not comparable: the watch's state stands (it delivers every change after its position).
                    if (storedRv == ResourceVersions.UNKNOWN || listedRv == ResourceVersions.UNKNOWN
                            || storedRv >= listedRv) {
                        continue;
                    }
                } else {
                    Long deleted = deletedWhileFilling.get(key);
                    if (deleted != null && (deleted == ResourceVersions.UNKNOWN
                            || listedRv == ResourceVersions.UNKNOWN || deleted >= listedRv)) {
                        continue;
                    }
                }
                cache.put(obj);
                added++;
            }
        }
        return added;
    }

    /**
     * Ends a fill. What the watch put into a listed namespace before its list and the list lacks was deleted at or
     * before the list, and that delete's event is at or below the mark, so it is dropped: such objects go now.
     */
    void endFill() {
        synchronized (cache) {
            if (marksWhileFilling != null) {
                List<T> stale = new ArrayList<>();
                delegate.values().forEach(obj -> {
                    Long m = marksWhileFilling.get(obj.getMetadata().getNamespace());
                    long rv = ResourceVersions.of(obj);
                    if (m != null && m != ResourceVersions.UNKNOWN && rv != ResourceVersions.UNKNOWN && rv <= m
                            && !listedWhileFilling.contains(getKey(obj))) {
                        stale.add(obj);
                    }
                });
                for (T obj : stale) {
                    cache.remove(obj);
                }
            }
            filling = Set.of();
            deletedWhileFilling = null;
            listedWhileFilling = null;
            marksWhileFilling = null;
        }
    }

    /** Fills {@code shards} namespace by namespace from {@code lister} (blocking). Returns how many were added. */
    int fillFrom(Set<Integer> shards, NamespacedLister<T> lister) {
        return fillFrom(shards, lister, shard -> true, new HashSet<>());
    }

    /**
     * As {@link #fillFrom(Set, NamespacedLister)}, but stops listing a shard's namespaces once {@code wanted} says the
     * shard is no longer wanted (lost while its fill runs: listing the rest of a shard of 250,000 pods would be wasted)
     * and adds it to {@code abandoned}. An abandoned shard stays covered but half-listed: the caller must drop it.
     */
    int fillFrom(Set<Integer> shards, NamespacedLister<T> lister, java.util.function.IntPredicate wanted,
                 Set<Integer> abandoned) {
        acquireListing();
        try {
            beginFill(shards);
            try {
                int added = 0;
                for (String ns : namespacesOf(lister.namespaces().names(), shards)) {
                    int shard = Shards.shardOf(ns, shardCount);
                    if (abandoned.contains(shard) || !wanted.test(shard)) {
                        abandoned.add(shard);
                        continue;
                    }
                    String token = null;
                    boolean first = true;
                    do {
                        KubernetesResourceList<T> page = lister.page(ns, lister.fillPageSize(), token);
                        String rv = page.getMetadata() == null ? null : page.getMetadata().getResourceVersion();
                        // The first page's resourceVersion is the list's: Kubernetes serves the rest from it.
                        added += fill(ns, first ? (rv == null ? "" : rv) : null, page.getItems());
                        first = false;
                        token = page.getMetadata() == null ? null : page.getMetadata().getContinue();
                    } while (token != null && !token.isEmpty());
                }
                return added;
            } finally {
                endFill();
            }
        } finally {
            listing.release();
        }
    }

    /** The names of {@code names} in {@code shards}, sorted (a stable order for paging). */
    List<String> namespacesOf(List<String> names, Set<Integer> shards) {
        List<String> out = new ArrayList<>();
        for (String ns : names) {
            if (shards.contains(Shards.shardOf(ns, shardCount))) {
                out.add(ns);
            }
        }
        Collections.sort(out);
        return out;
    }

    /** Waits for the list lock (see {@link #listing}); interruptible (closing the scope interrupts the filler). */
    void acquireListing() {
        try {
            listing.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the informer's list", e);
        }
    }

    void releaseListing() {
        listing.release();
    }

    /** Forgets every mark: a new list of the informer starts (its watch starts again from that list). */
    void clearMarks() {
        synchronized (cache) {
            marks.clear();
            lowestMark = Long.MAX_VALUE;
        }
    }

    /** {@code namespace} was listed at {@code rv}: the watch's events of it up to {@code rv} are in the cache already. */
    void mark(String namespace, long rv) {
        synchronized (cache) {
            if (rv == ResourceVersions.UNKNOWN) {
                marks.remove(namespace);
            } else {
                marks.put(namespace, rv);
                lowestMark = Math.min(lowestMark, rv);
            }
        }
    }

    int marksHeld() {
        synchronized (cache) {
            return marks.size();
        }
    }

    /**
     * Whether the watch's event is newer than what the cache holds; called under the cache's lock, right before the
     * event is applied. Drops events at or below their namespace's mark and events older than the stored object.
     */
    private boolean admits(Watcher.Action action, T obj) {
        long rv = ResourceVersions.of(obj);
        if (rv == ResourceVersions.UNKNOWN) {
            return true;
        }
        String ns = obj.getMetadata().getNamespace();
        boolean admitted = true;
        if (action != Watcher.Action.BOOKMARK && ns != null) {
            // DELETED is left to the per-key rule below: a replayed one finds nothing or a newer incarnation (and
            // fabric8's CRUD mock server sends a delete with the object's last resourceVersion, not a new one).
            Long m = action == Watcher.Action.DELETED ? null : marks.get(ns);
            if (m != null && rv <= m) {
                admitted = false;
            } else if (covers(ns)) {
                T stored = delegate.get(getKey(obj));
                long storedRv = ResourceVersions.of(stored);
                // A DELETED event carries the deletion's own resourceVersion, above its object's last one.
                if (storedRv != ResourceVersions.UNKNOWN
                        && (action == Watcher.Action.DELETED ? storedRv > rv : storedRv >= rv)) {
                    admitted = false;
                }
            }
            if (admitted && action == Watcher.Action.DELETED && deletedWhileFilling != null
                    && filling.contains(Shards.shardOf(ns, shardCount))) {
                deletedWhileFilling.put(getKey(obj), rv);
            }
        }
        forgetMarksBelow(rv);
        return admitted;
    }

    /** The watch delivers in resourceVersion order: a mark below what it delivered drops nothing any more. */
    private void forgetMarksBelow(long rv) {
        if (rv <= lowestMark) {
            return;
        }
        marks.values().removeIf(m -> m < rv);
        long lowest = Long.MAX_VALUE;
        for (long m : marks.values()) {
            lowest = Math.min(lowest, m);
        }
        lowestMark = lowest;
    }

    /** {@code watcher} (the informer's) behind the marks: it sees only the events {@link #admits} lets through. */
    Watcher<T> watching(Watcher<T> watcher) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, T resource) {
                // Checked and applied under one lock, so a fill's merge or mark never falls between the two.
                synchronized (cache) {
                    if (resource == null || admits(action, resource)) {
                        watcher.eventReceived(action, resource);
                    }
                }
            }

            @Override
            public boolean reconnecting() {
                return watcher.reconnecting();
            }

            @Override
            public void onClose() {
                watcher.onClose();
            }

            @Override
            public void onClose(WatcherException cause) {
                watcher.onClose(cause);
            }
        };
    }
}
