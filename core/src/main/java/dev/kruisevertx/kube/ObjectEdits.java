package dev.kruisevertx.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * "Change this object", with optimistic concurrency done once for every controller: start from the cached copy,
 * apply the change to a copy of it, write what changed guarded by the copy's resourceVersion, and when another writer
 * came first (409) read the live object and apply the change again, a bounded number of times. The write is a JSON
 * merge patch of the difference, never the whole copy: the lean watch cache drops fields the server keeps
 * (managedFields, Pods' last-applied annotation, see {@code LeanObjects}), and a full update from the cached copy
 * would erase them. A 404 means the object is
 * gone: there is nothing left to change. The change function must be pure (it may run more than once) and must
 * return its argument unchanged when nothing needs to change, so that no write is sent.
 *
 * <p>Blocking: call it on a worker thread (inside {@link KubeExecutor#write}).
 */
public final class ObjectEdits {
    /** Attempts before a run of conflicts is handed to the caller (the reconcile then requeues). */
    public static final int DEFAULT_ATTEMPTS = 3;

    /** Where the change is written. */
    public enum Part { OBJECT, STATUS }

    private ObjectEdits() {
    }

    /**
     * Edits the object {@code start} names. {@code start} is the cached copy (never changed); null reads the live
     * object first.
     *
     * @return the object as written, {@code start}'s live state when the change changed nothing, or null when the
     * object is gone
     * @throws KubernetesClientException any other error, or the last 409 after {@code attempts} conflicts
     */
    public static <T extends HasMetadata> T edit(KubernetesClient client, Class<T> type, T start, String namespace,
                                                 String name, Part part, UnaryOperator<T> change, int attempts) {
        // A null namespace names a cluster-scoped object (a NodeImage, a NodePodProbe, a Node).
        Resource<T> resource = namespace == null ? client.resources(type).withName(name)
                : client.resources(type).inNamespace(namespace).withName(name);
        T current = start;
        for (int attempt = 1; ; attempt++) {
            try {
                if (current == null) {
                    current = resource.get();
                    if (current == null) {
                        return null;
                    }
                }
                T copy = ApiJson.serialization().clone(current);
                T changed = change.apply(copy);
                if (changed == null || Objects.equals(changed, current)) {
                    return current;
                }
                ObjectNode patch = MergePatches.diff(ApiJson.serialization().convertValue(current, JsonNode.class),
                        ApiJson.serialization().convertValue(changed, JsonNode.class));
                if (patch.isEmpty()) {
                    return current;
                }
                String rv = current.getMetadata() == null ? null : current.getMetadata().getResourceVersion();
                if (rv != null && !rv.isEmpty()) {
                    // The resourceVersion the change was computed from: a newer object answers 409, as an update.
                    patch.with("metadata").put("resourceVersion", rv);
                }
                PatchContext merge = PatchContext.of(PatchType.JSON_MERGE);
                return part == Part.STATUS ? resource.subresource("status").patch(merge, patch.toString())
                        : resource.patch(merge, patch.toString());
            } catch (KubernetesClientException e) {
                if (ApiErrors.isNotFound(e)) {
                    return null;
                }
                if (!ApiErrors.isConflict(e) || attempt >= attempts) {
                    throw e;
                }
                current = null;
            }
        }
    }

    /** {@link #edit} of a namespaced object from its cached copy, {@link #DEFAULT_ATTEMPTS} attempts. */
    public static <T extends HasMetadata> T edit(KubernetesClient client, T cached, Part part, UnaryOperator<T> change) {
        @SuppressWarnings("unchecked")
        Class<T> type = (Class<T>) cached.getClass();
        return edit(client, type, cached, cached.getMetadata().getNamespace(), cached.getMetadata().getName(), part,
                change, DEFAULT_ATTEMPTS);
    }
}
