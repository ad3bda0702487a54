package dev.kruisevertx.uniteddeployment;

/**
 * What the allocator needs to know of an existing subset workload.
 *
 * @param specReplicas          the workload's {@code spec.replicas}
 * @param readyReplicas         its ready pods
 * @param unschedulable         Adaptive: pods of the subset are pending for lack of room (default mode) or it has
 *                              reserved pods (reservation mode)
 * @param markedAsUnschedulable reservation mode: the subset's Schedulable condition is still False, so new pods in it
 *                              count as reserved until they run
 * @param reservedPods          reservation mode: pods kept pending while a temporary pod stands in for them
 */
public record SubsetState(int specReplicas, int readyReplicas, boolean unschedulable, boolean markedAsUnschedulable,
                          int reservedPods) {

    /** A schedulable subset with these replicas, all ready. */
    public static SubsetState of(int specReplicas) {
        return new SubsetState(specReplicas, specReplicas, false, false, 0);
    }

    /** New pods can be expected to schedule in this subset. */
    public boolean allocatable() {
        return !unschedulable && !markedAsUnschedulable;
    }
}
