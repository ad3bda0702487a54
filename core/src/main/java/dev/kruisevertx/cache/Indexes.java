package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Index names and functions of the watch cache. Names match OpenKruise's field indexes so code ported
 * from it reads the same. {@link #NAMESPACE}, {@link #OWNER_UID} and {@link #ORPHAN_NAMESPACE} exist for every kind,
 * {@link #NODE_NAME} for Pods; controllers register others with {@link WatchCache#addIndex}.
 *
 * <p>Index functions run under the informer's cache lock on every change: keep them cheap and pure.
 * Pass the same function object (these constants) when two components register the same index.
 */
public final class Indexes {
    /** Namespace of the object (fabric8's built-in index). */
    public static final String NAMESPACE = "namespace";
    /** UID of every owner reference. */
    public static final String OWNER_UID = "ownerRefUID";
    /**
     * Namespace of an object that has no controller owner reference (an orphan). Controllers look for pods to
     * adopt here instead of scanning their whole namespace on every reconcile.
     */
    public static final String ORPHAN_NAMESPACE = "orphanNamespace";
    /** {@code spec.nodeName} of a Pod; unscheduled pods are not indexed. */
    public static final String NODE_NAME = "spec.nodeName";
    /** Name of the controller owner (OpenKruise uses it for Jobs, BroadcastJobs and ImageListPullJobs of an AdvancedCronJob). */
    public static final String CONTROLLER = ".metadata.controller";
    /** "true"/"false": whether an ImagePullJob is still active. */
    public static final String IS_ACTIVE = "isActive";
    /** Value OpenKruise's SidecarSet namespace index uses for a cluster-wide SidecarSet. */
    public static final String SIDECARSET_CLUSTER_SCOPE = "clusterScope";

    /** UIDs of all owner references. */
    public static final Function<HasMetadata, List<String>> OWNER_UIDS = obj -> {
        List<OwnerReference> refs = obj.getMetadata() == null ? null : obj.getMetadata().getOwnerReferences();
        if (refs == null || refs.isEmpty()) {
            return List.of();
        }
        List<String> uids = new ArrayList<>(refs.size());
        for (OwnerReference ref : refs) {
            if (ref.getUid() != null) {
                uids.add(ref.getUid());
            }
        }
        return uids;
    };

    /** The namespace of an object without a controller owner reference; nothing for owned or cluster-scoped objects. */
    public static final Function<HasMetadata, List<String>> ORPHAN_NAMESPACES = obj -> {
        if (obj.getMetadata() == null || obj.getMetadata().getNamespace() == null) {
            return List.of();
        }
        List<OwnerReference> refs = obj.getMetadata().getOwnerReferences();
        if (refs != null) {
            for (OwnerReference ref : refs) {
                if (Boolean.TRUE.equals(ref.getController())) {
                    return List.of();
                }
            }
        }
        return List.of(obj.getMetadata().getNamespace());
    };

    /** A Pod's node, if scheduled. */
    public static final Function<Pod, List<String>> POD_NODE_NAME = pod -> {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        return node == null || node.isEmpty() ? List.of() : List.of(node);
    };

    private Indexes() {
    }

    /**
     * Index by the name of the controller owner when that owner has one of the given apiVersions and kinds
     * (OpenKruise's {@code .metadata.controller} index). Create it once and reuse the function object.
     */
    public static <T extends HasMetadata> Function<T, List<String>> controllerName(Set<String> apiVersions, Set<String> kinds) {
        Set<String> versions = Set.copyOf(apiVersions);
        Set<String> kindSet = Set.copyOf(kinds);
        return obj -> {
            List<OwnerReference> refs = obj.getMetadata() == null ? null : obj.getMetadata().getOwnerReferences();
            if (refs == null) {
                return List.of();
            }
            for (OwnerReference ref : refs) {
                if (Boolean.TRUE.equals(ref.getController())) {
                    if (versions.contains(ref.getApiVersion()) && kindSet.contains(ref.getKind())) {
                        return List.of(ref.getName());
                    }
                    return List.of();
                }
            }
            return List.of();
        };
    }
}
