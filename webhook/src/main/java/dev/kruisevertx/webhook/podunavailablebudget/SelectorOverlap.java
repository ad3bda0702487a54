package dev.kruisevertx.webhook.podunavailablebudget;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * OpenKruise's "loose overlap" of two label selectors: both name exactly the same keys and, key by key, the two
 * requirements could both hold for some value. Deliberately loose: selectors over different keys are never an
 * overlap, even when one pod could match both (OpenKruise accepts such budgets, so this project does too).
 */
public final class SelectorOverlap {
    private SelectorOverlap() {
    }

    public static boolean loose(LabelSelector a, LabelSelector b) {
        Map<String, LabelSelectorRequirement> ra = requirements(a);
        Map<String, LabelSelectorRequirement> rb = requirements(b);
        if (!ra.keySet().equals(rb.keySet())) {
            return false;
        }
        for (Map.Entry<String, LabelSelectorRequirement> e : ra.entrySet()) {
            LabelSelectorRequirement other = rb.get(e.getKey());
            if (!overlap(e.getValue(), other) || !overlap(other, e.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** matchLabels win over a matchExpression on the same key, as in OpenKruise. */
    private static Map<String, LabelSelectorRequirement> requirements(LabelSelector selector) {
        Map<String, LabelSelectorRequirement> out = new HashMap<>();
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                out.put(r.getKey(), r);
            }
        }
        if (selector.getMatchLabels() != null) {
            selector.getMatchLabels().forEach((k, v) -> out.put(k, new LabelSelectorRequirement(k, "In", List.of(v))));
        }
        return out;
    }

    private static boolean overlap(LabelSelectorRequirement x, LabelSelectorRequirement y) {
        String yo = String.valueOf(y.getOperator());
        List<String> xv = x.getValues() == null ? List.of() : x.getValues();
        List<String> yv = y.getValues() == null ? List.of() : y.getValues();
        switch (String.valueOf(x.getOperator())) {
            case "In":
                return yo.equals("Exists") || (yo.equals("In") && xv.stream().anyMatch(yv::contains))
                        || (yo.equals("NotIn") && !yv.containsAll(xv));
            case "Exists":
                return yo.equals("In") || yo.equals("NotIn") || yo.equals("Exists");
            case "NotIn":
                return yo.equals("Exists") || yo.equals("DoesNotExist") || yo.equals("NotIn")
                        || (yo.equals("In") && !xv.containsAll(yv));
            case "DoesNotExist":
                return yo.equals("DoesNotExist") || yo.equals("NotIn");
            default:
                return false;
        }
    }

    /** A short rendering for error messages (labels and expressions, no other object content). */
    static String render(LabelSelector selector) {
        return "{matchLabels:" + selector.getMatchLabels() + ", matchExpressions:"
                + (selector.getMatchExpressions() == null ? "[]" : selector.getMatchExpressions().stream()
                .map(r -> r.getKey() + " " + r.getOperator() + " " + r.getValues()).toList()) + "}";
    }
}
