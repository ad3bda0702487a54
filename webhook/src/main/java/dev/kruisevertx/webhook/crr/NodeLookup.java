package dev.kruisevertx.webhook.crr;

import io.fabric8.kubernetes.api.model.Node;
import io.vertx.core.Future;

import java.util.Optional;

/**
 * Reads a node for the ContainerRecreateRequest webhook (to see whether the pod runs on a virtual kubelet). Asynchronous,
 * because the manager has no node cache and reads it from the API server on a worker thread; empty when the node does
 * not exist.
 */
@FunctionalInterface
public interface NodeLookup {
    /** A lookup that finds no node: requests are then never marked as on a virtual kubelet. */
    NodeLookup NONE = name -> Future.succeededFuture(Optional.empty());

    Future<Optional<Node>> find(String name);
}
