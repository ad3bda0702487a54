package dev.kruisevertx.controller;

import dev.kruisevertx.cache.WatchCache;
import dev.kruisevertx.features.FeatureGates;
import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.List;

/**
 * Describes one controller to the manager: its name (used for metrics and the {@code --<name>-workers} flag),
 * the kinds it cannot run without, the feature gates it needs, the cache indexes it reads, and how to build it.
 */
public interface ControllerDefinition {
    String name();

    Class<? extends HasMetadata> primaryType();

    /** Kinds that must be served by the API server; when one is missing the controller is skipped and reported. */
    default List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(primaryType());
    }

    default boolean enabled(FeatureGates gates) {
        return true;
    }

    /** Registers the cache indexes the controller reads; called before any informer starts. */
    default void registerIndexes(WatchCache cache) {
    }

    default int defaultWorkers() {
        return 3;
    }

    Controller create(ControllerContext context);
}
