package dev.kruisevertx.webhook.cloneset;

import io.fabric8.kubernetes.api.model.Pod;
import io.vertx.core.Future;

import java.util.Optional;

/**
 * Reads a pod for the webhooks. The manager wires the shared pod watch cache; {@link #find} runs on the event loop, so
 * it must be in-memory. With {@code --shards} a replica caches only some namespaces' pods: the webhooks ask
 * {@link #findAsync}, which the manager answers from the API server (on a worker) for the namespaces it does not cache.
 */
@FunctionalInterface
public interface PodLookup {
    Optional<Pod> find(String namespace, String name);

    /** The pod, from memory when it can be; by default {@link #find}. */
    default Future<Optional<Pod>> findAsync(String namespace, String name) {
        return Future.succeededFuture(find(namespace, name));
    }
}
