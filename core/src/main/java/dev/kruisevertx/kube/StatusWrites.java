package dev.kruisevertx.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

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
     * {@code computedFrom}.
     *
     * @return whether the status was written
     */
    public static <T extends HasMetadata> boolean writeOverSameVersion(KubernetesClient client, Class<T> type,
                                                                        T computedFrom, Consumer<T> setStatus) {
        String version = computedFrom.getMetadata().getResourceVersion();
        boolean[] written = {false};
        client.resources(type).inNamespace(computedFrom.getMetadata().getNamespace())
                .withName(computedFrom.getMetadata().getName())
                .editStatus(live -> {
                    if (version == null || version.equals(live.getMetadata().getResourceVersion())) {
                        setStatus.accept(live);
                        written[0] = true;
                    }
                    return live;
                });
        return written[0];
    }
}
