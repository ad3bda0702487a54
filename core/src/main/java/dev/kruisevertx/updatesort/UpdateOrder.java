package dev.kruisevertx.updatesort;

import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;
import dev.kruisevertx.api.common.UpdateScatterTerm;
import dev.kruisevertx.lifecycle.Lifecycles;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which a workload updates its pods, as OpenKruise's {@code SortUpdateIndexes}: start from the
 * workload's default order, apply the priority strategy, then the scatter strategy, and finally move pods already in
 * PreparingUpdate to the front (stable), so a pod whose hook was released is not overtaken.
 */
public final class UpdateOrder {
    private UpdateOrder() {
    }

    /**
     * @param pods          all pods of the workload
     * @param defaultSorted indexes of the pods waiting for an update, already in the workload's default order
     * @param priority      {@code updateStrategy.priorityStrategy} (may be null)
     * @param scatter       {@code updateStrategy.scatterStrategy} (may be null)
     */
    public static List<Integer> sort(List<Pod> pods, List<Integer> defaultSorted, UpdatePriorityStrategy priority,
                                     List<UpdateScatterTerm> scatter) {
        List<Integer> order = new ArrayList<>(defaultSorted);
        if (priority != null) {
            order = new PrioritySorter(priority).sort(pods, order);
        }
        if (scatter != null) {
            order = new ScatterSorter(scatter).sort(pods, order);
        }
        List<Integer> preparing = new ArrayList<>();
        List<Integer> rest = new ArrayList<>();
        for (int idx : order) {
            (Lifecycles.isIn(pods.get(idx), LifecycleState.PREPARING_UPDATE) ? preparing : rest).add(idx);
        }
        preparing.addAll(rest);
        return preparing;
    }
}
