package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.DiffFlags;
import io.fabric8.zjsonpatch.JsonDiff;

/**
 * Mutations are written as "take a copy of the object and change it"; this turns original and changed copy
 * into the RFC 6902 patch the API server applies, with zjsonpatch (plain add/remove/replace operations).
 */
public final class ObjectMutation {
    private ObjectMutation() {
    }

    public static ArrayNode diff(JsonNode original, JsonNode changed) {
        JsonNode patch = JsonDiff.asJson(original, changed, DiffFlags.dontNormalizeOpIntoMoveAndCopy());
        return (ArrayNode) patch;
    }

    /**
     * Patch between a typed original and its mutated copy. Both sides go through the same serializer so a
     * round trip (field order, omitted empties) never shows up as a change.
     */
    public static <T> ArrayNode diffModels(T original, T changed) {
        ObjectNode before = Json.toTree(original);
        ObjectNode after = Json.toTree(changed);
        return diff(before, after);
    }
}
