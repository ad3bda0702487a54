package dev.kruisevertx.expectations;

import dev.kruisevertx.kube.ApiErrors;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Deletable;

/**
 * Deletes an object whose deletion {@link ScaleExpectations#expectDelete} already expects. When no deletion event
 * will come (the object was already gone, or the request failed) the expectation is observed here, so the owner is
 * not held waiting for it. Blocking: call it on a worker thread.
 */
public final class ExpectedDeletes {
    private ExpectedDeletes() {
    }

    /**
     * @return true when this call deleted the object, false when it was already gone (404 or nothing deleted)
     * @throws KubernetesClientException any other failure, after observing the expectation
     */
    public static boolean delete(Deletable resource, ScaleExpectations scale, String key, String name) {
        try {
            var deleted = resource.delete();
            if (deleted == null || deleted.isEmpty()) {
                scale.observeDelete(key, name);
                return false;
            }
            return true;
        } catch (KubernetesClientException e) {
            scale.observeDelete(key, name);
            if (ApiErrors.isNotFound(e)) {
                return false;
            }
            throw e;
        }
    }
}
