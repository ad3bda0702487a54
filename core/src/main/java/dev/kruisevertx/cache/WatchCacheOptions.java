package dev.kruisevertx.cache;

import java.time.Duration;
import java.util.Map;

/**
 * How the {@link WatchCache} lists and watches.
 *
 * @param namespace        restrict every namespaced informer to this namespace ({@code --namespace});
 *                         null watches all namespaces. Cluster-scoped kinds are always watched whole.
 * @param resyncPeriod     re-deliver every cached object as an update this often ({@code --sync-period});
 *                         {@link Duration#ZERO} (the default) disables resync. fabric8 needs at least 1 s.
 * @param mutationDetector keep a copy of every cached object and report callers that change one
 *                         (debug mode; doubles memory and costs a serialization per event)
 * @param leanObjects      put every cached object through {@link LeanObjects} (drop managedFields and Pods'
 *                         last-applied annotation, share repeated strings); on by default
 * @param listPageSize     objects per page of an informer's list; 0 (the default) lists whole with
 *                         {@code resourceVersion=0}, which the API server answers from its watch cache
 */
public record WatchCacheOptions(String namespace, Duration resyncPeriod, boolean mutationDetector,
                                boolean leanObjects, long listPageSize) {
    /** Environment variable that switches the mutation detector on, as in client-go. */
    public static final String MUTATION_DETECTOR_ENV = "KUBE_CACHE_MUTATION_DETECTOR";

    public WatchCacheOptions(String namespace, Duration resyncPeriod, boolean mutationDetector) {
        this(namespace, resyncPeriod, mutationDetector, true, 0);
    }

    public WatchCacheOptions {
        if (listPageSize < 0) {
            throw new IllegalArgumentException("list page size must be 0 (whole lists) or positive, got " + listPageSize);
        }
        if (namespace != null && namespace.isBlank()) {
            namespace = null;
        }
        if (resyncPeriod == null) {
            resyncPeriod = Duration.ZERO;
        }
        if (resyncPeriod.isNegative()) {
            throw new IllegalArgumentException("resync period must not be negative, got " + resyncPeriod);
        }
        if (!resyncPeriod.isZero() && resyncPeriod.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("resync period must be 0 (off) or at least 1s, got " + resyncPeriod);
        }
    }

    /** All namespaces, no resync, mutation detector as {@value #MUTATION_DETECTOR_ENV} says. */
    public static WatchCacheOptions defaults() {
        return defaults(System.getenv());
    }

    static WatchCacheOptions defaults(Map<String, String> env) {
        return new WatchCacheOptions(null, Duration.ZERO, "true".equalsIgnoreCase(env.get(MUTATION_DETECTOR_ENV)));
    }

    public WatchCacheOptions withNamespace(String ns) {
        return new WatchCacheOptions(ns, resyncPeriod, mutationDetector, leanObjects, listPageSize);
    }

    public WatchCacheOptions withResyncPeriod(Duration period) {
        return new WatchCacheOptions(namespace, period, mutationDetector, leanObjects, listPageSize);
    }

    public WatchCacheOptions withMutationDetector(boolean enabled) {
        return new WatchCacheOptions(namespace, resyncPeriod, enabled, leanObjects, listPageSize);
    }

    /** Turns the {@link LeanObjects} transform off (to measure its effect) or on. */
    public WatchCacheOptions withLeanObjects(boolean enabled) {
        return new WatchCacheOptions(namespace, resyncPeriod, mutationDetector, enabled, listPageSize);
    }

    /** Lists in pages of {@code size} objects (0: whole, from the API server's watch cache). */
    public WatchCacheOptions withListPageSize(long size) {
        return new WatchCacheOptions(namespace, resyncPeriod, mutationDetector, leanObjects, size);
    }
}
