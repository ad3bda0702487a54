package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Receives cache events on the informer's own thread, one at a time per listener. Handlers must be
 * O(1) and non-blocking (enqueue a key, publish on the event bus): fabric8 queues events for a slow
 * handler without bound. Exceptions are logged and swallowed so one bad listener cannot stop the informer.
 */
@FunctionalInterface
public interface CacheListener<T extends HasMetadata> {
    void onEvent(CacheEvent<T> event);
}
