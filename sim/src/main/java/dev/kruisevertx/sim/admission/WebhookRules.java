package dev.kruisevertx.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.sim.api.AdmissionAttributes;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Whether a webhook of a Mutating/ValidatingWebhookConfiguration applies to a request, as kube-apiserver decides. */
final class WebhookRules {
    private WebhookRules() {
    }

    static boolean ruleMatches(JsonNode webhook, AdmissionAttributes a) {
        JsonNode rules = webhook.path("rules");
        if (!rules.isArray() || rules.isEmpty()) {
            return false;
        }
        for (JsonNode rule : rules) {
            if (contains(rule.path("operations"), a.operation())
                    && contains(rule.path("apiGroups"), a.type().group())
                    && contains(rule.path("apiVersions"), a.version())
                    && resourceMatches(rule.path("resources"), a.type().plural(), a.subresource())
                    && scopeMatches(rule.path("scope").asText("*"), a.type().namespaced())) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(JsonNode list, String value) {
        for (JsonNode v : list) {
            if (v.asText().equals("*") || v.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    private static boolean resourceMatches(JsonNode resources, String plural, String subresource) {
        for (JsonNode r : resources) {
            String s = r.asText();
            String[] parts = s.split("/", 2);
            String res = parts[0];
            String sub = parts.length > 1 ? parts[1] : "";
            if (!res.equals("*") && !res.equals(plural)) {
                continue;
            }
            if (sub.equals("*") || sub.equals(subresource)) {
                return true;
            }
        }
        return false;
    }

    private static boolean scopeMatches(String scope, boolean namespaced) {
        return switch (scope) {
            case "Cluster" -> !namespaced;
            case "Namespaced" -> namespaced;
            default -> true;
        };
    }

    /** A metav1.LabelSelector against labels; a missing selector selects everything. */
    static boolean selectorMatches(JsonNode selector, JsonNode labels) {
        if (selector == null || selector.isMissingNode() || selector.isNull()) {
            return true;
        }
        Iterator<Map.Entry<String, JsonNode>> ml = selector.path("matchLabels").fields();
        while (ml.hasNext()) {
            Map.Entry<String, JsonNode> e = ml.next();
            if (!e.getValue().asText().equals(labels.path(e.getKey()).asText(null))) {
                return false;
            }
        }
        for (JsonNode r : selector.path("matchExpressions")) {
            String value = labels.has(r.path("key").asText()) ? labels.path(r.path("key").asText()).asText() : null;
            List<String> values = new ArrayList<>();
            r.path("values").forEach(v -> values.add(v.asText()));
            boolean ok = switch (r.path("operator").asText()) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
