package dev.kruisevertx.webhook.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import io.fabric8.kubernetes.api.model.OwnerReference;

import java.util.Optional;

/**
 * The reads and the write the pod webhook's WorkloadSpread bookkeeping needs. Every method may block (API calls):
 * callers run them on worker threads only.
 */
public interface WorkloadSpreadStore {
    /** The WorkloadSpread as the shared watch cache holds it (never modified by callers), or empty. */
    Optional<WorkloadSpread> cached(String namespace, String name);

    /** The WorkloadSpread read from the API server, or empty when it is gone. */
    Optional<WorkloadSpread> latest(String namespace, String name);

    /**
     * Replaces the status over the object's resourceVersion and returns the stored object.
     *
     * @throws io.fabric8.kubernetes.client.KubernetesClientException with code 409 when the resourceVersion is stale
     */
    WorkloadSpread updateStatus(WorkloadSpread ws);

    /**
     * The controller reference of the object {@code owner} names in {@code namespace} (a ReplicaSet's Deployment),
     * empty when it has none.
     *
     * @throws io.fabric8.kubernetes.client.KubernetesClientException with code 404 when the object is gone
     */
    Optional<OwnerReference> controllerOf(String namespace, OwnerReference owner);

    /**
     * The replicas percentage limits are taken of: the target's {@code spec.replicas} ({@code spec.parallelism} for
     * a Job), or the sum of the {@code targetFilter.replicasPathList} paths, or a whitelisted custom workload's
     * replicas path; 0 when the target is gone.
     */
    int workloadReplicas(WorkloadSpread ws);
}
