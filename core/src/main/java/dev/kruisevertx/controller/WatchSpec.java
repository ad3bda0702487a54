package dev.kruisevertx.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** One kind a controller listens to, and how its events become keys. */
public record WatchSpec<T extends HasMetadata>(Class<T> type, EventMapper<T> mapper) {
    public static <T extends HasMetadata> WatchSpec<T> of(Class<T> type, EventMapper<T> mapper) {
        return new WatchSpec<>(type, mapper);
    }
}
