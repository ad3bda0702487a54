package dev.kruisevertx.updatesort;

import dev.kruisevertx.api.common.UpdatePriorityOrderTerm;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;
import dev.kruisevertx.api.common.UpdatePriorityWeightTerm;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Orders pods by an {@link UpdatePriorityStrategy}, as OpenKruise's priority sorter:
 * <ul>
 *   <li>weight terms: the sum of the weights of the terms whose selector matches, higher first (a term with an
 *       invalid selector is ignored);</li>
 *   <li>order terms (used only when there are no weight terms): pods are ranked by the first term whose key they
 *       carry, earlier term first, and pods carrying none of the keys before all others; within a term the number
 *       at the end of the label value ("5" in "sts-5") orders them, higher first;</li>
 *   <li>ties: the pod at the higher index first.</li>
 * </ul>
 */
public final class PrioritySorter implements UpdateSorter {
    private final List<Predicate<Map<String, String>>> weightSelectors = new ArrayList<>();
    private final List<Integer> weights = new ArrayList<>();
    private final List<String> orderedKeys = new ArrayList<>();

    public PrioritySorter(UpdatePriorityStrategy strategy) {
        if (strategy == null) {
            return;
        }
        if (strategy.getWeightPriority() != null) {
            for (UpdatePriorityWeightTerm term : strategy.getWeightPriority()) {
                try {
                    weightSelectors.add(LabelSelectors.compile(term.getMatchSelector()));
                    weights.add(term.getWeight());
                } catch (IllegalArgumentException invalidSelector) {
                    // OpenKruise skips a term whose selector does not parse; validation reports it to the user.
                }
            }
        }
        if (strategy.getOrderPriority() != null) {
            for (UpdatePriorityOrderTerm term : strategy.getOrderPriority()) {
                orderedKeys.add(term.getOrderedKey());
            }
        }
    }

    private boolean useWeights() {
        return !weights.isEmpty();
    }

    @Override
    public List<Integer> sort(List<Pod> pods, List<Integer> indexes) {
        List<Integer> out = new ArrayList<>(indexes);
        if (!useWeights() && orderedKeys.isEmpty()) {
            return out;
        }
        // Rank every pod once: selectors are not re-evaluated inside the O(n log n) comparisons.
        Map<Integer, long[]> keys = new HashMap<>(out.size() * 2);
        for (int idx : out) {
            Map<String, String> labels = Pods.labels(pods.get(idx));
            keys.put(idx, useWeights() ? new long[]{-weight(labels), 0} : orderKey(labels));
        }
        out.sort((i, j) -> {
            long[] a = keys.get(i);
            long[] b = keys.get(j);
            int c = Long.compare(a[0], b[0]);
            if (c == 0) {
                c = Long.compare(a[1], b[1]);
            }
            return c != 0 ? c : Integer.compare(j, i);
        });
        return out;
    }

    /** Negative when the pod with labels {@code a} goes first, positive when {@code b} does, 0 on a tie. */
    public int compare(Map<String, String> a, Map<String, String> b) {
        if (useWeights()) {
            return Long.compare(weight(b), weight(a));
        }
        if (!orderedKeys.isEmpty()) {
            long[] pa = order(a);
            long[] pb = order(b);
            if (pa[0] != pb[0]) {
                return Long.compare(pa[0], pb[0]);
            }
            return Long.compare(pb[1], pa[1]);
        }
        return 0;
    }

    /** Sum of the weights of the matching terms. */
    public long weight(Map<String, String> labels) {
        long sum = 0;
        for (int k = 0; k < weightSelectors.size(); k++) {
            if (weightSelectors.get(k).test(labels)) {
                sum += weights.get(k);
            }
        }
        return sum;
    }

    /** Sort key for order terms: term position ascending, then the number descending. */
    private long[] orderKey(Map<String, String> labels) {
        long[] o = order(labels);
        return new long[]{o[0], -o[1]};
    }

    /** {term position, number} for the first ordered key present; {-1, 0} when none is. */
    private long[] order(Map<String, String> labels) {
        Map<String, String> l = labels == null ? Map.of() : labels;
        for (int k = 0; k < orderedKeys.size(); k++) {
            String value = l.get(orderedKeys.get(k));
            if (value != null) {
                return new long[]{k, trailingNumber(value)};
            }
        }
        return new long[]{-1, 0};
    }

    /** The decimal number the value ends with ("sts-12" gives 12); 0 when it ends with no digit or overflows. */
    static long trailingNumber(String value) {
        int start = value.length();
        while (start > 0 && value.charAt(start - 1) >= '0' && value.charAt(start - 1) <= '9') {
            start--;
        }
        if (start == value.length()) {
            return 0;
        }
        try {
            return Long.parseLong(value.substring(start));
        } catch (NumberFormatException overflow) {
            return 0;
        }
    }
}
