package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The informer's item store with the {@link LeanObjects} transform on the way in. fabric8 puts every listed and
 * watched object through {@link #put} before it updates the indexes and notifies handlers, with the same instance,
 * so the transformed object is the only copy anyone sees (the store, the indexes and every cache event).
 */
final class LeanItemStore<T extends HasMetadata> implements ItemStore<T> {
    private final ConcurrentHashMap<String, T> items = new ConcurrentHashMap<>();
    private final LeanObjects transform;

    LeanItemStore(LeanObjects transform) {
        this.transform = transform;
    }

    @Override
    public String getKey(T obj) {
        return Cache.metaNamespaceKeyFunc(obj);
    }

    @Override
    public T put(String key, T obj) {
        return items.put(key, transform.apply(obj));
    }

    @Override
    public T remove(String key) {
        return items.remove(key);
    }

    @Override
    public Stream<String> keySet() {
        return items.keySet().stream();
    }

    @Override
    public Stream<T> values() {
        return items.values().stream();
    }

    @Override
    public int size() {
        return items.size();
    }

    @Override
    public T get(String key) {
        return items.get(key);
    }
}
