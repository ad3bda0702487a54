package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.Objects;

/**
 * One change seen by a watch cache. The objects are the cached instances themselves (read-only, see
 * {@link CachedResource}); the event is immutable and crosses the Vert.x event bus without a copy.
 *
 * @param type        what happened
 * @param oldObject   the previous state for {@code UPDATED}; for {@code DELETED} the final state the watch
 *                    reported (a fresh object, not the instance that was cached) or, after a relist, the
 *                    last cached state; null for {@code ADDED}
 * @param newObject   the new state for {@code ADDED} and {@code UPDATED}, null for {@code DELETED}
 * @param initialList for {@code ADDED}: the object was already there when the informer first listed
 *                    (or when the listener was added to a running informer), as opposed to created
 *                    while watching; false for other types
 */
public record CacheEvent<T extends HasMetadata>(Type type, T oldObject, T newObject, boolean initialList) {
    public enum Type { ADDED, UPDATED, DELETED }

    public CacheEvent {
        Objects.requireNonNull(type, "type");
        switch (type) {
            case ADDED -> {
                if (newObject == null) {
                    throw new IllegalArgumentException("ADDED needs newObject");
                }
            }
            case UPDATED -> {
                if (oldObject == null || newObject == null) {
                    throw new IllegalArgumentException("UPDATED needs oldObject and newObject");
                }
            }
            case DELETED -> {
                if (oldObject == null) {
                    throw new IllegalArgumentException("DELETED needs oldObject");
                }
            }
        }
    }

    public static <T extends HasMetadata> CacheEvent<T> added(T obj, boolean initialList) {
        return new CacheEvent<>(Type.ADDED, null, obj, initialList);
    }

    public static <T extends HasMetadata> CacheEvent<T> updated(T oldObj, T newObj) {
        return new CacheEvent<>(Type.UPDATED, oldObj, newObj, false);
    }

    public static <T extends HasMetadata> CacheEvent<T> deleted(T lastKnown) {
        return new CacheEvent<>(Type.DELETED, lastKnown, null, false);
    }

    /** The object the event is about: the new state, or the last known one for a deletion. */
    public T object() {
        return newObject != null ? newObject : oldObject;
    }
}
