package dev.kruisevertx.podutil;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Kubernetes label selectors ({@code matchLabels} + {@code matchExpressions}) as predicates over label maps, with
 * the semantics of apimachinery's {@code LabelSelectorAsSelector}: a null selector matches nothing, an empty one
 * matches everything.
 */
public final class LabelSelectors {
    private LabelSelectors() {
    }

    /**
     * Compiles a selector once so it can be applied to many pods cheaply.
     *
     * @throws IllegalArgumentException for an unknown operator or values that do not fit the operator
     */
    public static Predicate<Map<String, String>> compile(LabelSelector selector) {
        if (selector == null) {
            return labels -> false;
        }
        List<Predicate<Map<String, String>>> parts = new ArrayList<>();
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
                String key = e.getKey();
                String value = e.getValue() == null ? "" : e.getValue();
                parts.add(labels -> labels.containsKey(key) && value.equals(labels.get(key)));
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                parts.add(requirement(r));
            }
        }
        return labels -> {
            Map<String, String> l = labels == null ? Map.of() : labels;
            for (Predicate<Map<String, String>> p : parts) {
                if (!p.test(l)) {
                    return false;
                }
            }
            return true;
        };
    }

    /** Whether {@code labels} satisfy {@code selector}; see {@link #compile}. */
    public static boolean matches(LabelSelector selector, Map<String, String> labels) {
        return compile(selector).test(labels);
    }

    private static Predicate<Map<String, String>> requirement(LabelSelectorRequirement r) {
        String key = r.getKey();
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("label selector requirement without a key");
        }
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        String op = r.getOperator();
        if (op == null) {
            throw new IllegalArgumentException("label selector requirement on \"" + key + "\" without an operator");
        }
        switch (op) {
            case "In":
            case "NotIn": {
                if (values.isEmpty()) {
                    throw new IllegalArgumentException("label selector operator " + op + " on \"" + key
                            + "\" needs at least one value");
                }
                Set<String> set = Set.copyOf(values);
                boolean in = op.equals("In");
                return labels -> in == (labels.containsKey(key) && set.contains(labels.get(key)));
            }
            case "Exists":
            case "DoesNotExist": {
                if (!values.isEmpty()) {
                    throw new IllegalArgumentException("label selector operator " + op + " on \"" + key
                            + "\" takes no values");
                }
                boolean exists = op.equals("Exists");
                return labels -> exists == labels.containsKey(key);
            }
            default:
                throw new IllegalArgumentException("unknown label selector operator \"" + op + "\" on \"" + key + "\"");
        }
    }
}
