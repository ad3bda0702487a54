package dev.kruisevertx.cache;

import dev.kruisevertx.controller.Shards;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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
 * their index entries go too) before the set shrinks; gaining one grows the set, then {@link #fill} lists the kind
 * and adds the gained shards' objects the watch has not mentioned since (the watch is newer for those it has).
 */
final class ShardedItemStore<T extends HasMetadata> implements ItemStore<T> {
    private final String kind;
    private final int shardCount;
    private final ItemStore<T> delegate;
    /** Covered shards; written only under the cache's lock, read by index functions outside it too. */
    private volatile Set<Integer> covered = Set.of();
    private CacheImpl<T> cache;
    /** Shards being filled and the keys the informer put or removed meanwhile (guarded by the cache's lock). */
    private volatile Set<Integer> filling = Set.of();
    private Set<String> touched;
    private boolean fillPut;

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
        noteTouched(key);
        return delegate.put(key, obj);
    }

    @Override
    public T remove(String key) {
        noteTouched(key);
        return delegate.remove(key);
    }

    private void noteTouched(String key) {
        if (touched != null && !fillPut && filling.contains(shardOfKey(key))) {
            touched.add(key);
        }
    }

    private int shardOfKey(String key) {
        int slash = key.indexOf('/');
        return Shards.shardOf(slash < 0 ? "" : key.substring(0, slash), shardCount);
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
     * with a list taken after this returned, then {@link #endFill}.
     */
    void beginFill(Set<Integer> shards) {
        synchronized (cache) {
            // Filling before covered: a reader of both (holdsAll) never takes a shard being filled as complete.
            filling = Set.copyOf(shards);
            touched = new HashSet<>();
            Set<Integer> next = new TreeSet<>(covered);
            next.addAll(shards);
            covered = Collections.unmodifiableSet(next);
        }
    }

    /**
     * Adds the listed objects of the shards being filled that the informer has not put or removed since
     * {@link #beginFill}: for those the watch (which delivers every change after its position, older than the list)
     * is authoritative. Returns how many were added.
     */
    int fill(List<T> listed) {
        int added = 0;
        synchronized (cache) {
            if (touched == null) {
                return 0;
            }
            fillPut = true;
            try {
                for (T obj : listed) {
                    String key = getKey(obj);
                    if (filling.contains(Shards.shardOf(obj.getMetadata().getNamespace(), shardCount))
                            && !touched.contains(key) && delegate.get(key) == null) {
                        cache.put(obj);
                        added++;
                    }
                }
            } finally {
                fillPut = false;
            }
        }
        return added;
    }

    void endFill() {
        synchronized (cache) {
            filling = Set.of();
            touched = null;
        }
    }

    /** Lists a kind page by page (a continue token in, a page out). */
    interface Lister<T extends HasMetadata> {
        KubernetesResourceList<T> page(String continueToken);
    }

    /** Fills {@code shards} from {@code lister} (blocking): every page is added as it arrives. Returns how many. */
    int fillFrom(Set<Integer> shards, Lister<T> lister) {
        beginFill(shards);
        try {
            int added = 0;
            String token = null;
            do {
                KubernetesResourceList<T> page = lister.page(token);
                added += fill(page.getItems());
                token = page.getMetadata() == null ? null : page.getMetadata().getContinue();
            } while (token != null && !token.isEmpty());
            return added;
        } finally {
            endFill();
        }
    }
}
