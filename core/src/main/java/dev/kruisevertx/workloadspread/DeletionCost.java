package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubset;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The {@value WellKnown#POD_DELETION_COST_ANNOTATION} values WorkloadSpread gives the active pods of its subsets,
 * so the workload scales down from the last subset first and from a subset over its limit before any other: the
 * pods subset {@code i} (of {@code n}) keeps get {@code 100 * (n - i)}, the surplus pods over its {@code maxReplicas}
 * (the first in {@link ActivePodsOrder}) get {@code -100 * (i + 1)}, pods in no subset get {@code -100 * (n + 1)}.
 * For pods of an old version (rolling update) the subset order is reversed. Only for CloneSet, Deployment and
 * ReplicaSet targets.
 */
public final class DeletionCost {
    private DeletionCost() {
    }

    /** One annotation to write. */
    public record Assignment(Pod pod, String value) {
    }

    /** Whether the target kind scales down by deletion cost. */
    public static boolean appliesTo(TargetReference ref) {
        if (ref == null || ref.getKind() == null) {
            return false;
        }
        return switch (ref.getKind()) {
            case "ReplicaSet", "Deployment", "CloneSet" -> true;
            default -> false;
        };
    }

    /**
     * The annotations to write for the pods of one version, by subset name (pods in no subset under
     * {@value WorkloadSpreads#FAKE_SUBSET_NAME}); a pod whose annotation already has the value is left out, and so
     * is a pod without the annotation whose value would be "0". A subset whose limit cannot be read is skipped.
     *
     * @param reverseOrder true for pods not of the workload's latest version
     */
    public static List<Assignment> plan(WorkloadSpread ws, Map<String, List<Pod>> podsBySubset, int workloadReplicas,
                                        boolean reverseOrder) {
        List<WorkloadSpreadSubset> subsets = ws.spec().subsets();
        int n = subsets.size();
        List<Assignment> out = new ArrayList<>();
        for (int idx = 0; idx < n; idx++) {
            WorkloadSpreadSubset subset = subsets.get(idx);
            int index = reverseOrder ? n - idx - 1 : idx;
            subsetCosts(subset, index, n, podsBySubset.getOrDefault(subset.getName(), List.of()), workloadReplicas,
                    out);
        }
        List<Pod> strays = podsBySubset.getOrDefault(WorkloadSpreads.FAKE_SUBSET_NAME, List.of());
        if (!strays.isEmpty()) {
            subsetCosts(null, n, n, strays, workloadReplicas, out);
        }
        return out;
    }

    private static void subsetCosts(WorkloadSpreadSubset subset, int index, int subsetCount, List<Pod> pods,
                                    int workloadReplicas, List<Assignment> out) {
        List<Pod> active = new ArrayList<>();
        for (Pod p : pods) {
            if (Pods.isActive(p)) {
                active.add(p);
            }
        }
        List<Pod> positive = new ArrayList<>();
        List<Pod> negative = new ArrayList<>();
        if (subset == null) {
            negative = active;
        } else if (subset.getMaxReplicas() == null) {
            positive = active;
        } else {
            OptionalInt max = WorkloadSpreads.scaled(subset.getMaxReplicas(), workloadReplicas, true);
            if (max.isEmpty() || max.getAsInt() < 0) {
                return;
            }
            int limit = max.getAsInt();
            if (active.size() <= limit) {
                positive = active;
            } else {
                List<Pod> sorted = new ArrayList<>(active);
                sorted.sort(ActivePodsOrder.INSTANCE);
                int surplus = active.size() - limit;
                negative = sorted.subList(0, surplus);
                positive = sorted.subList(surplus, sorted.size());
            }
        }
        String positiveValue = Integer.toString(WorkloadSpreads.DELETION_COST_POSITIVE * (subsetCount - index));
        String negativeValue = Integer.toString(WorkloadSpreads.DELETION_COST_NEGATIVE * (index + 1));
        assign(positive, positiveValue, out);
        assign(negative, negativeValue, out);
    }

    private static void assign(List<Pod> pods, String value, List<Assignment> out) {
        for (Pod p : pods) {
            String current = Pods.annotations(p).get(WellKnown.POD_DELETION_COST_ANNOTATION);
            if (value.equals(current) || (current == null && "0".equals(value))) {
                continue;
            }
            out.add(new Assignment(p, value));
        }
    }
}
