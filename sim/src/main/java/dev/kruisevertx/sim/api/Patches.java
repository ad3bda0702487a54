package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.kube.StrategicMergePatch;
import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;

import java.util.Iterator;
import java.util.Map;

/** The three patch types kube-apiserver accepts besides server-side apply. */
public final class Patches {
    public static final String JSON_PATCH = "application/json-patch+json";
    public static final String MERGE_PATCH = "application/merge-patch+json";
    public static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
    public static final String APPLY_PATCH = "application/apply-patch+yaml";

    private Patches() {
    }

    public static JsonNode apply(String contentType, JsonNode target, JsonNode patch, boolean strategicAllowed) {
        String type = contentType == null ? "" : contentType.split(";")[0].trim();
        switch (type) {
            case JSON_PATCH:
                if (!patch.isArray()) {
                    throw ApiException.badRequest("json patch must be an array of operations");
                }
                try {
                    return JsonPatch.apply(patch, target);
                } catch (JsonPatchException | IllegalArgumentException e) {
                    throw new ApiException(422, "Invalid", "the server rejected our request due to an error in our request: " + e.getMessage());
                }
            case MERGE_PATCH:
                return mergePatch(target, patch);
            case STRATEGIC_MERGE_PATCH:
                if (!strategicAllowed) {
                    throw new ApiException(415, "UnsupportedMediaType",
                            "the body of the request was in an unknown format - accepted media types include: "
                                    + "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml");
                }
                if (!patch.isObject()) {
                    throw ApiException.badRequest("strategic merge patch must be a JSON object");
                }
                return strategicMerge(target, (ObjectNode) patch);
            case APPLY_PATCH:
                throw serverSideApply();
            default:
                throw new ApiException(415, "UnsupportedMediaType", "unsupported patch content type \"" + contentType + "\"");
        }
    }

    /** RFC 7386: objects merge recursively, {@code null} deletes, everything else replaces. */
    public static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy()
                : JsonNodeFactory.instance.objectNode();
        Iterator<Map.Entry<String, JsonNode>> fields = patch.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (f.getValue().isNull()) {
                result.remove(f.getKey());
            } else {
                result.set(f.getKey(), mergePatch(result.get(f.getKey()), f.getValue()));
            }
        }
        return result;
    }

    /** Strategic merge, as kube-apiserver applies it to built-in types (see {@link StrategicMergePatch}). */
    public static ObjectNode strategicMerge(JsonNode target, ObjectNode patch) {
        return StrategicMergePatch.apply(target, patch);
    }

    /** The answer to a server-side apply, whether or not its object exists yet. */
    static ApiException serverSideApply() {
        return new ApiException(415, "UnsupportedMediaType", "server-side apply is not supported by the embedded API server; use a merge or strategic merge patch");
    }
}
