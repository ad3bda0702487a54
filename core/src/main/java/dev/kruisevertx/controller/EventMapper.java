package dev.kruisevertx.controller;

import dev.kruisevertx.cache.CacheEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Maps one cache event to the keys of the objects that must be reconciled because of it (a pod to its owning
 * workload, a workload to itself). It runs for every event of its type, so it must be O(1): read the event and
 * the cache, never the API.
 */
@FunctionalInterface
public interface EventMapper<T extends HasMetadata> {
    void map(CacheEvent<T> event, Enqueuer queue);

    /** Enqueues the object of the event itself: the mapping for a controller's primary kind. */
    static <T extends HasMetadata> EventMapper<T> self() {
        return (event, queue) -> {
            T object = event.newObject() != null ? event.newObject() : event.oldObject();
            if (object != null) {
                queue.add(Request.of(object));
            }
        };
    }
}
