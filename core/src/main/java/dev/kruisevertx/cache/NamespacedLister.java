package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;

import java.util.List;

/**
 * Lists a kind cached per shard namespace by namespace, so that a replica reads (and decodes) only the objects of the
 * namespaces its shards cover instead of every object of the cluster. Blocking: call it off the event loop.
 */
interface NamespacedLister<T extends HasMetadata> {

    /** The namespace names, and the resourceVersion they were listed at (null when not listed from the server). */
    record Namespaces(List<String> names, String resourceVersion) {
        public Namespaces {
            names = List.copyOf(names);
        }
    }

    /** Every namespace the kind may have objects in. */
    Namespaces namespaces();

    /** One page of {@code namespace}'s objects ({@code limit} null: all of them). */
    KubernetesResourceList<T> page(String namespace, Long limit, String continueToken);

    /** Objects per page when a gained shard is listed into the cache. */
    long fillPageSize();
}
