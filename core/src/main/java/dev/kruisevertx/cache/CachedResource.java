package dev.kruisevertx.cache;

import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.util.ArrayList;
import java.util.List;

/**
 * Read access to the shared cache of one kind.
 *
 * <p><b>Read-only contract.</b> Every object returned here, and every object in a {@link CacheEvent},
 * is the instance the informer holds, shared by every controller and webhook handler in the process —
 * never a copy. Callers must not change it (not even metadata or status). To change an object, copy
 * it first ({@code new PodBuilder(cached).editMetadata()...build()}) and send the change to the API
 * server, preferably as a patch; the cache then receives the new state through its watch. Run with
 * {@code KUBE_CACHE_MUTATION_DETECTOR=true} to have violations reported.
 */
public interface CachedResource<T extends HasMetadata> {
    /** The cached object, or null. {@code namespace} is ignored (may be null) for cluster-scoped kinds. */
    T get(String namespace, String name);

    /** Every cached object (a new list; the elements are the cached instances). */
    List<T> list();

    /** The cached objects of one namespace; null selects objects without a namespace (cluster-scoped). */
    List<T> list(String namespace);

    /** The cached objects whose index function returned {@code value}; see {@link Indexes}. */
    List<T> byIndex(String indexName, String value);

    /**
     * The cached objects whose controller is the owner with {@code ownerUid}: the owner index narrows them down, and
     * only the controller ownerReference counts (an object may name other owners too).
     */
    default List<T> controlledBy(String ownerUid) {
        List<T> out = new ArrayList<>();
        for (T obj : byIndex(Indexes.OWNER_UID, ownerUid)) {
            if (Pods.isControlledBy(obj, ownerUid)) {
                out.add(obj);
            }
        }
        return out;
    }

    /** Subscribe to changes; a listener added to a running informer first receives every cached object as ADDED. */
    void addListener(CacheListener<T> listener);

    void removeListener(CacheListener<T> listener);

    /** The informer completed its first list. */
    boolean hasSynced();

    /** The informer's watch is currently open (false while it reconnects or relists). */
    boolean isWatching();

    /** The underlying shared informer, for what this interface does not cover. Do not stop it. */
    SharedIndexInformer<T> informer();
}
