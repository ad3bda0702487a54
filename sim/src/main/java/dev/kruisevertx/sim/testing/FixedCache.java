package dev.kruisevertx.sim.testing;

import dev.kruisevertx.cache.CacheListener;
import dev.kruisevertx.cache.CachedResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.util.List;
import java.util.Objects;

/**
 * A synced, read-only cache of a fixed list of objects, for testing event handlers that look objects up without an
 * informer. It has no indexes and never notifies listeners.
 */
public final class FixedCache<T extends HasMetadata> implements CachedResource<T> {
    private final List<T> items;

    private FixedCache(List<T> items) {
        this.items = List.copyOf(items);
    }

    @SafeVarargs
    public static <T extends HasMetadata> FixedCache<T> of(T... items) {
        return new FixedCache<>(List.of(items));
    }

    @Override
    public T get(String namespace, String name) {
        return items.stream().filter(o -> Objects.equals(o.getMetadata().getNamespace(), namespace)
                && Objects.equals(o.getMetadata().getName(), name)).findFirst().orElse(null);
    }

    @Override
    public List<T> list() {
        return items;
    }

    @Override
    public List<T> list(String namespace) {
        return items.stream().filter(o -> Objects.equals(o.getMetadata().getNamespace(), namespace)).toList();
    }

    @Override
    public List<T> byIndex(String indexName, String value) {
        throw new IllegalArgumentException("a FixedCache has no index " + indexName);
    }

    @Override
    public void addListener(CacheListener<T> listener) {
    }

    @Override
    public void removeListener(CacheListener<T> listener) {
    }

    @Override
    public boolean hasSynced() {
        return true;
    }

    @Override
    public boolean isWatching() {
        return true;
    }

    @Override
    public SharedIndexInformer<T> informer() {
        return null;
    }
}
