package dev.kruisevertx.webhook.cloneset;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.Optional;

/**
 * Reads a pod for podsToDelete checks. The manager wires the shared pod watch cache; lookups run on the
 * event loop, so they must be in-memory.
 */
@FunctionalInterface
public interface PodLookup {
    Optional<Pod> find(String namespace, String name);
}
