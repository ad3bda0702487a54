package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import java.util.List;
import java.util.Map;

/**
 * A delete request's options (metav1.DeleteOptions), from its body and query string: propagation policy (with the
 * older orphanDependents), grace period, uid and resourceVersion preconditions, dry run.
 */
public record DeleteOptions(String propagationPolicy, Long gracePeriodSeconds, String preconditionUid,
                            String preconditionResourceVersion, boolean dryRun) {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    public static DeleteOptions from(JsonNode body, Map<String, String> query) {
        JsonNode b = body == null ? JSON.objectNode() : body;
        String policy = query.getOrDefault("propagationPolicy", b.path("propagationPolicy").asText(null));
        if (policy == null && b.has("orphanDependents")) {
            policy = b.path("orphanDependents").asBoolean() ? "Orphan" : "Background";
        }
        if (policy == null && "true".equals(query.get("orphanDependents"))) {
            policy = "Orphan";
        }
        Long grace = null;
        if (query.containsKey("gracePeriodSeconds")) {
            try {
                grace = Long.parseLong(query.get("gracePeriodSeconds"));
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("gracePeriodSeconds must be an integer");
            }
        } else if (b.has("gracePeriodSeconds") && !b.get("gracePeriodSeconds").isNull()) {
            grace = b.get("gracePeriodSeconds").asLong();
        }
        if (policy != null && !List.of("Orphan", "Background", "Foreground").contains(policy)) {
            throw ApiException.badRequest("propagationPolicy: Unsupported value: \"" + policy
                    + "\": supported values: \"Foreground\", \"Background\", \"Orphan\"");
        }
        JsonNode pre = b.path("preconditions");
        boolean dry = b.path("dryRun").size() > 0 || query.containsKey("dryRun");
        return new DeleteOptions(policy, grace, pre.path("uid").asText(null),
                pre.path("resourceVersion").asText(null), dry);
    }

    public static DeleteOptions background() {
        return new DeleteOptions("Background", null, null, null, false);
    }
}
