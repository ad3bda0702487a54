package dev.kruisevertx.webhook.sidecarset;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether two label selectors may select a common object, with OpenKruise's rule (used to decide which SidecarSets
 * can meet on a pod): they are disjoint when one pins a label to values the other excludes. It is a heuristic, as in
 * OpenKruise: selectors it calls overlapping may still be disjoint, and an {@code Exists} on a key the other selector
 * does not mention counts as disjoint.
 */
final class SelectorOverlap {
    private static final String ALL = "\u0000all";

    private SelectorOverlap() {
    }

    static boolean overlapping(LabelSelector a, LabelSelector b) {
        return !disjoint(a, b) && !disjoint(b, a);
    }

    private static boolean disjoint(LabelSelector first, LabelSelector second) {
        Map<String, List<String>> allowed = new HashMap<>();
        if (first.getMatchLabels() != null) {
            first.getMatchLabels().forEach((k, v) -> allowed.put(k, new ArrayList<>(List.of(v))));
        }
        for (LabelSelectorRequirement r : requirements(first)) {
            if ("In".equals(r.getOperator()) && r.getValues() != null) {
                allowed.computeIfAbsent(r.getKey(), k -> new ArrayList<>()).addAll(r.getValues());
            } else if ("Exists".equals(r.getOperator())) {
                allowed.put(r.getKey(), new ArrayList<>(List.of(ALL)));
            }
        }
        if (second.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : second.getMatchLabels().entrySet()) {
                List<String> values = allowed.get(e.getKey());
                if (values != null && !values.contains(ALL) && !values.contains(e.getValue())) {
                    return true;
                }
            }
        }
        for (LabelSelectorRequirement r : requirements(second)) {
            List<String> values = allowed.get(r.getKey());
            List<String> theirs = r.getValues() == null ? List.of() : r.getValues();
            switch (r.getOperator() == null ? "" : r.getOperator()) {
                case "In" -> {
                    if (values != null && !values.contains(ALL) && theirs.stream().noneMatch(values::contains)) {
                        return true;
                    }
                }
                case "NotIn" -> {
                    if (values != null && theirs.containsAll(values)) {
                        return true;
                    }
                }
                case "Exists" -> {
                    if (values == null) {
                        return true;
                    }
                }
                case "DoesNotExist" -> {
                    if (values != null) {
                        return true;
                    }
                }
                default -> {
                }
            }
        }
        return false;
    }

    private static List<LabelSelectorRequirement> requirements(LabelSelector s) {
        return s.getMatchExpressions() == null ? List.of() : s.getMatchExpressions();
    }
}
