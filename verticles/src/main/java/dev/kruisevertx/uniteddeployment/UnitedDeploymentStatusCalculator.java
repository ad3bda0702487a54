package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentStatus;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetStatus;
import dev.kruisevertx.api.apps.v1alpha1.UpdateStatus;
import dev.kruisevertx.api.common.ApiJson;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The UnitedDeployment status OpenKruise v1.9.0's calculateStatus computes, from the previous status, the plan and
 * the subset workloads. Pure; conditions are carried over (the actuator sets SubsetProvisioned/SubsetUpdated from
 * what it did).
 *
 * <ul>
 *   <li>{@code replicas}, {@code readyReplicas}, {@code updatedReplicas}, {@code updatedReadyReplicas}: the sums
 *       of the subset workloads' status;</li>
 *   <li>{@code subsetStatuses[]}: each subset's replicas, ready replicas and next partition (conditions kept);
 *       {@code subsetReplicas}: the allocation;</li>
 *   <li>{@code updateStatus}: the revision the subsets should be at and the next partitions;
 *       {@code currentRevision}: set once, and moved to the updated revision when at least as many pods are updated
 *       and ready as there are pods.</li>
 * </ul>
 */
public final class UnitedDeploymentStatusCalculator {
    private UnitedDeploymentStatusCalculator() {
    }

    /**
     * @param old             the status read with the object (not changed)
     * @param workloads       the kept workload of each subset, by subset name
     * @param currentRevision the revision to start from when the status has none
     * @param updatedRevision the revision the subsets should be at
     */
    public static UnitedDeploymentStatus compute(UnitedDeploymentStatus old, UnitedDeploymentPlan plan,
                                                 Map<String, SubsetWorkload> workloads, String currentRevision,
                                                 String updatedRevision, String labelSelector, long generation) {
        UnitedDeploymentStatus status = old == null ? new UnitedDeploymentStatus()
                : ApiJson.serialization().convertValue(old, UnitedDeploymentStatus.class);
        int replicas = 0;
        int ready = 0;
        int updated = 0;
        int updatedReady = 0;
        List<UnitedDeploymentSubsetStatus> subsets = status.getSubsetStatuses() == null ? new ArrayList<>()
                : new ArrayList<>(status.getSubsetStatuses());
        for (Map.Entry<String, SubsetWorkload> e : workloads.entrySet()) {
            SubsetWorkload w = e.getValue();
            replicas += w.replicas();
            ready += w.readyReplicas();
            updated += w.updatedReplicas();
            updatedReady += w.updatedReadyReplicas();
            UnitedDeploymentSubsetStatus ss = subsets.stream().filter(s -> e.getKey().equals(s.getName())).findFirst()
                    .orElseGet(() -> {
                        UnitedDeploymentSubsetStatus created = new UnitedDeploymentSubsetStatus();
                        created.setName(e.getKey());
                        subsets.add(created);
                        return created;
                    });
            ss.setReplicas(w.replicas());
            ss.setReadyReplicas(w.readyReplicas());
            ss.setPartition(plan.nextPartitions().getOrDefault(e.getKey(), 0));
        }
        status.setReplicas(replicas);
        status.setReadyReplicas(ready);
        status.setUpdatedReplicas(updated);
        status.setUpdatedReadyReplicas(updatedReady);
        status.setSubsetStatuses(subsets.isEmpty() ? null : subsets);
        status.setSubsetReplicas(new LinkedHashMap<>(plan.nextReplicas()));
        if (status.getCurrentRevision() == null || status.getCurrentRevision().isEmpty()) {
            status.setCurrentRevision(currentRevision);
        }
        UpdateStatus update = new UpdateStatus();
        update.setUpdatedRevision(updatedRevision);
        update.setCurrentPartitions(new LinkedHashMap<>(plan.nextPartitions()));
        status.setUpdateStatus(update);
        if (!updatedRevision.equals(status.getCurrentRevision()) && updatedReady >= replicas) {
            status.setCurrentRevision(updatedRevision);
        }
        status.setLabelSelector(labelSelector);
        status.setObservedGeneration(generation);
        return status;
    }
}
