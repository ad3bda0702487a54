package dev.kruisevertx.updatesort;

import dev.kruisevertx.api.common.UpdateScatterTerm;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Spreads the pods matching each scatter term ({@code key=value}) evenly over the update order, with the
 * algorithm and tie-breaking of OpenKruise's scatter sorter, so update batches mix matching and other pods in the
 * proportion the whole workload has. Terms are applied one after another, the term matching most pods to update
 * first; for each term the last matching pod to update is moved to the very end.
 */
public final class ScatterSorter implements UpdateSorter {
    private final List<UpdateScatterTerm> terms;

    public ScatterSorter(List<UpdateScatterTerm> terms) {
        this.terms = terms == null ? List.of() : List.copyOf(terms);
    }

    @Override
    public List<Integer> sort(List<Pod> pods, List<Integer> indexes) {
        List<Integer> out = new ArrayList<>(indexes);
        if (terms.isEmpty() || out.size() <= 1) {
            return out;
        }
        for (UpdateScatterTerm term : effectiveTerms(pods, out)) {
            out = scatter(term, pods, out);
        }
        return out;
    }

    /**
     * The terms in the order they are applied: as given when there is one; otherwise only the terms matching at
     * least one pod to update, the term matching more of them first (stable among equals).
     */
    List<UpdateScatterTerm> effectiveTerms(List<Pod> pods, List<Integer> indexes) {
        if (terms.size() == 1) {
            return terms;
        }
        Map<String, UpdateScatterTerm> found = new LinkedHashMap<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (UpdateScatterTerm term : terms) {
            for (int idx : indexes) {
                String value = Pods.labels(pods.get(idx)).get(term.getKey());
                if (value != null && value.equals(term.getValue())) {
                    String id = term.getKey() + ":" + value;
                    found.putIfAbsent(id, new UpdateScatterTerm(term.getKey(), value));
                    counts.merge(id, 1, Integer::sum);
                }
            }
        }
        List<String> ids = new ArrayList<>(found.keySet());
        ids.sort((x, y) -> Integer.compare(counts.get(y), counts.get(x)));
        List<UpdateScatterTerm> result = new ArrayList<>(ids.size());
        for (String id : ids) {
            result.add(found.get(id));
        }
        return result;
    }

    private static boolean matches(Pod pod, UpdateScatterTerm term) {
        // A missing label reads as "" as in Go, so a term with an empty value matches pods without the key.
        String value = Pods.labels(pod).getOrDefault(term.getKey(), "");
        return value.equals(term.getValue() == null ? "" : term.getValue());
    }

    /** One term: interleave matching and unmatched pods to update in groups sized by the workload's density. */
    static List<Integer> scatter(UpdateScatterTerm term, List<Pod> pods, List<Integer> indexes) {
        List<Integer> matched = new ArrayList<>();
        List<Integer> unmatched = new ArrayList<>();
        for (int i : indexes) {
            (matches(pods.get(i), term) ? matched : unmatched).add(i);
        }
        if (matched.size() <= 1 || unmatched.size() <= 1) {
            return new ArrayList<>(indexes);
        }
        int totalMatched = 0;
        int totalUnmatched = 0;
        for (Pod p : pods) {
            if (p == null) {
                continue;
            }
            if (matches(p, term)) {
                totalMatched++;
            } else {
                totalUnmatched++;
            }
        }

        // The last matching pod is held back to the very end.
        int lastMatched = matched.remove(matched.size() - 1);
        totalMatched--;

        Group group = Group.byDensity(totalMatched, totalUnmatched, matched.size(), unmatched.size());
        List<Integer> out = new ArrayList<>(indexes.size());
        int m = 0;
        int u = 0;
        if (group.unmatchedRemainder > 0) {
            int take = Math.min(group.unmatchedRemainder, unmatched.size());
            out.addAll(unmatched.subList(0, take));
            u = take;
        }
        for (int g = 0; g < group.count; g++) {
            m = move(matched, m, out, group.matchedSize);
            u = move(unmatched, u, out, group.unmatchedSize);
        }
        out.addAll(matched.subList(m, matched.size()));
        out.addAll(unmatched.subList(u, unmatched.size()));
        out.add(lastMatched);
        return out;
    }

    /** Appends up to {@code size} items of {@code src} from {@code from} (all that are left if fewer). */
    private static int move(List<Integer> src, int from, List<Integer> dst, int size) {
        if (from >= src.size()) {
            return from;
        }
        int to = src.size() - from < size ? src.size() : from + size;
        dst.addAll(src.subList(from, to));
        return to;
    }

    /** How many groups to form and how many matched/unmatched pods each takes. */
    record Group(int count, int matchedSize, int unmatchedSize, int unmatchedRemainder) {
        static Group of(int matched, int unmatched) {
            int count = Math.min(matched, unmatched);
            return new Group(count, roundHalfAway((double) matched / count),
                    roundHalfAway((double) unmatched / count), 0);
        }

        /**
         * When the pods to update are denser in matches than the workload, groups follow the workload's ratio so
         * the rest of the rollout keeps the same mix; the unmatched pods left over go first.
         */
        static Group byDensity(int totalMatched, int totalUnmatched, int updateMatched, int updateUnmatched) {
            Group total = of(totalMatched, totalUnmatched);
            Group update = of(updateMatched, updateUnmatched);
            if ((float) totalUnmatched / (float) totalMatched >= (float) updateUnmatched / (float) updateMatched) {
                return update;
            }
            int count = Math.min(updateMatched / total.matchedSize, updateUnmatched / total.unmatchedSize);
            return new Group(count, total.matchedSize, total.unmatchedSize,
                    updateUnmatched - count * total.unmatchedSize);
        }

        private static int roundHalfAway(double v) {
            return (int) Math.round(v);
        }
    }
}
