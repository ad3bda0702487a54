package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Mutations are written as "take a copy of the object and change it"; this turns original and changed copy
 * into the RFC 6902 patch the API server applies (plain add/remove/replace operations, in time linear in the size
 * of the object: see {@link PositionalJsonDiff}).
 */
public final class ObjectMutation {
    private ObjectMutation() {
    }

    /** The patch as a JSON array, for callers that inspect its operations. */
    public static ArrayNode diff(JsonNode original, JsonNode changed) {
        return PositionalJsonDiff.diff(original, changed).toArrayNode();
    }

    /** The patch in its compact form, for an admission response. */
    public static JsonPatchOps patch(JsonNode original, JsonNode changed) {
        return PositionalJsonDiff.diff(original, changed);
    }

    /**
     * Patch between a typed original and its mutated copy. Both sides go through the same serializer so a
     * round trip (field order, omitted empties) never shows up as a change.
     */
    public static <T> JsonPatchOps diffModels(T original, T changed) {
        ObjectNode before = Json.toTree(original);
        ObjectNode after = Json.toTree(changed);
        return patch(before, after);
    }
}
