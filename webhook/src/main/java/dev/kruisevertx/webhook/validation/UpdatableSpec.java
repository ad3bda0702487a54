package dev.kruisevertx.webhook.validation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;

import java.util.List;

/**
 * OpenKruise's rule that an update of a workload may change only the spec fields its kind lists as updatable:
 * both specs are compared with those fields left out.
 */
public final class UpdatableSpec {
    private UpdatableSpec() {
    }

    /** The spec as a tree without the updatable fields (an empty tree for no spec). */
    public static ObjectNode withoutUpdatable(Object spec, List<String> updatable) {
        ObjectNode tree = spec == null ? Json.MAPPER.createObjectNode() : Json.toTree(spec);
        updatable.forEach(tree::remove);
        return tree;
    }

    /**
     * Adds {@code spec: Forbidden: <message>} when both specs are present and differ outside the updatable fields.
     */
    public static void check(Object now, Object before, List<String> updatable, String message,
                             List<FieldError> errors) {
        if (now != null && before != null
                && !withoutUpdatable(now, updatable).equals(withoutUpdatable(before, updatable))) {
            errors.add(FieldError.forbidden("spec", message));
        }
    }
}
