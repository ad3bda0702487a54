package dev.kruisevertx.updatesort;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;

/**
 * Reorders the pods waiting for an update. Works on indexes into a pod list so callers keep their own list (which
 * may hold nulls, e.g. reserved StatefulSet ordinals) untouched.
 */
public interface UpdateSorter {
    /**
     * The new order of {@code indexes}. Neither argument is modified.
     *
     * @param pods    every pod of the workload, indexed as {@code indexes}; entries not referenced may be null
     * @param indexes positions in {@code pods} of the pods to update, in the order decided so far
     */
    List<Integer> sort(List<Pod> pods, List<Integer> indexes);

    /** Convenience: the pods themselves in the new order (every pod of the list takes part). */
    default List<Pod> sortPods(List<Pod> pods) {
        List<Integer> indexes = new ArrayList<>(pods.size());
        for (int i = 0; i < pods.size(); i++) {
            indexes.add(i);
        }
        List<Pod> out = new ArrayList<>(pods.size());
        for (int i : sort(pods, indexes)) {
            out.add(pods.get(i));
        }
        return out;
    }
}
