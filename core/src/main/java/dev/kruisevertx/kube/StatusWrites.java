package dev.kruisevertx.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.function.Consumer;

/**
 * Status writes of a workload controller. A status is computed from a cached object; it is written only over that
 * same version of the object, as an update carrying its resourceVersion would be. A status computed from a cache that
 * is behind (our previous status write or a spec change not seen yet) must not overwrite a newer one — it once reset
 * a StatefulSet's collisionCount — and the event that brings the cache up to date reconciles again anyway.
 *
 * <p>Blocking: call it on a worker thread (e.g. inside {@link KubeExecutor#write}).
 */
public final class StatusWrites {
    private StatusWrites() {
    }

    /**
     * Sets the status of the live object with {@code setStatus} if its resourceVersion is still the one of
     * {@code computedFrom}: one PUT of the status subresource carrying that resourceVersion, which the API server
     * refuses with 409 when the object has changed since (a GET then a PATCH took two round trips and, at 20,000
     * CloneSets reconciled at start-up, doubled the requests of the phase). The status subresource takes only the
     * status from the body, so an object trimmed by the cache (no managedFields) is fine to send. {@code computedFrom}
     * is not modified: the status is set on a copy.
     *
     * @return whether the status was written (false: the object changed since {@code computedFrom})
     */
    public static <T extends HasMetadata> boolean writeOverSameVersion(KubernetesClient client, Class<T> type,
                                                                        T computedFrom, Consumer<T> setStatus) {
        String version = computedFrom.getMetadata().getResourceVersion();
        if (version == null) {
            return writeOverLive(client, type, computedFrom, setStatus);
        }
        T copy = client.getKubernetesSerialization().clone(computedFrom);
        setStatus.accept(copy);
        try {
            client.resources(type).inNamespace(computedFrom.getMetadata().getNamespace()).resource(copy).updateStatus();
            return true;
        } catch (KubernetesClientException e) {
            if (ApiErrors.isConflict(e)) {
                // Written by someone since: the event that brings the cache up to date reconciles again.
                return false;
            }
            throw e;
        }
    }

    /** No version to hold on to (an object built, not read): the status goes over whatever is live. */
    private static <T extends HasMetadata> boolean writeOverLive(KubernetesClient client, Class<T> type,
                                                                 T computedFrom, Consumer<T> setStatus) {
        client.resources(type).inNamespace(computedFrom.getMetadata().getNamespace())
                .withName(computedFrom.getMetadata().getName())
                .editStatus(live -> {
                    setStatus.accept(live);
                    return live;
                });
        return true;
    }
}
