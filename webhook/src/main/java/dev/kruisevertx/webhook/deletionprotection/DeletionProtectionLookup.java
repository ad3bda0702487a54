package dev.kruisevertx.webhook.deletionprotection;

import io.vertx.core.Future;

/**
 * What {@code Cascading} reads about the cluster. Each answer is a Future so an implementation can count off the event
 * loop (the manager counts cached pods on a worker and lists claims and custom resources from the API server there).
 */
public interface DeletionProtectionLookup {
    /** Finds nothing: every namespace is empty and no CRD has objects. */
    DeletionProtectionLookup NONE = new DeletionProtectionLookup() {
        @Override
        public Future<Integer> activePods(String namespace) {
            return Future.succeededFuture(0);
        }

        @Override
        public Future<Integer> boundClaims(String namespace) {
            return Future.succeededFuture(0);
        }

        @Override
        public Future<Integer> activeCustomResources(CustomResourceType type) {
            return Future.succeededFuture(0);
        }
    };

    /** Pods of {@code namespace} that are neither finished nor being deleted. */
    Future<Integer> activePods(String namespace);

    /**
     * PersistentVolumeClaims of {@code namespace} in phase Bound without a deletionTimestamp; an implementation may
     * stop counting once it found some (the answer is then at least 1 but may be below the total).
     */
    Future<Integer> boundClaims(String namespace);

    /** Objects of {@code type} without a deletionTimestamp; may stop counting early as {@link #boundClaims} may. */
    Future<Integer> activeCustomResources(CustomResourceType type);

    /**
     * The objects a CRD defines, at the version the API server stores.
     *
     * @param group      spec.group
     * @param version    the storage version
     * @param kind       spec.names.kind
     * @param plural     spec.names.plural
     * @param namespaced spec.scope is Namespaced
     */
    record CustomResourceType(String group, String version, String kind, String plural, boolean namespaced) {
        /** As OpenKruise names it in its list-failure message: {@code group/version, Kind=kind}. */
        @Override
        public String toString() {
            return group + "/" + version + ", Kind=" + kind;
        }
    }
}
