package dev.kruisevertx.sim.controllers;

import dev.kruisevertx.podutil.PodDeletionCost;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.Comparator;

/**
 * kube's ActivePods ordering, which pods a ReplicaSet (or Job) deletes first: unscheduled before scheduled,
 * Pending before Unknown before Running, not ready before ready, lower {@code pod-deletion-cost} first, more
 * restarts first, newer before older.
 */
final class ActivePodOrder {
    static final Comparator<Pod> DELETE_FIRST = Comparator
            .comparing((Pod p) -> Pods.isAssigned(p))
            .thenComparing(p -> phaseRank(Pods.phase(p)))
            .thenComparing(Pods::isReady)
            .thenComparing(PodDeletionCost::of)
            .thenComparing(p -> -Pods.restartCount(p))
            .thenComparing((Pod p) -> created(p), Comparator.reverseOrder());

    private ActivePodOrder() {
    }

    private static int phaseRank(String phase) {
        if ("Pending".equals(phase)) {
            return 0;
        }
        return "Running".equals(phase) ? 2 : 1;
    }

    private static String created(Pod p) {
        return p.getMetadata().getCreationTimestamp() == null ? "" : p.getMetadata().getCreationTimestamp();
    }
}
