package dev.kruisevertx.uniteddeployment;

import java.util.List;
import java.util.Map;

/**
 * What the UnitedDeployment controller should do now: the subsets' next replicas and partitions and the workloads
 * to create, update and delete. When the replicas cannot be allocated, {@code allocationError} says why and nothing
 * is to change.
 */
public record UnitedDeploymentPlan(Map<String, Integer> nextReplicas, Map<String, Integer> nextPartitions,
                                   List<Create> creates, List<Update> updates, List<Delete> deletes,
                                   String allocationError) {

    /** A subset without a workload. */
    public record Create(String subset, int replicas, int partition) {
    }

    /** An existing workload whose revision, replicas, partition or patch differ, or whose update is unfinished. */
    public record Update(String workload, String subset, int replicas, int partition, String reason) {
    }

    /** A workload that no longer belongs: its subset left the topology, it duplicates another, or it is of a kind
     * the template no longer makes. */
    public record Delete(String workload, String subset, String reason) {
    }

    public boolean idle() {
        return creates.isEmpty() && updates.isEmpty() && deletes.isEmpty();
    }
}
