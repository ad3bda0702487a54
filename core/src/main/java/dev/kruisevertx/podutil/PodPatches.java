package dev.kruisevertx.podutil;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.zjsonpatch.DiffFlags;
import io.fabric8.zjsonpatch.JsonDiff;

import java.util.Set;

/**
 * Turns a pod and its changed copy (from the in-place, lifecycle or readiness helpers) into JSON patches, so a
 * controller sends only what it changed instead of a whole object that could overwrite another writer's fields.
 * Send the result with {@code PatchContext.of(PatchType.JSON)}.
 */
public final class PodPatches {
    /** Metadata the API server owns: never part of a patch. */
    private static final Set<String> SERVER_FIELDS = Set.of("/metadata/resourceVersion", "/metadata/managedFields",
            "/metadata/generation", "/metadata/creationTimestamp", "/metadata/uid");

    private PodPatches() {
    }

    /**
     * The changes to {@code metadata} and {@code spec}, as a JSON Patch array ("[]" when none). With
     * {@code guardResourceVersion} the patch starts with a {@code test} of the resourceVersion the change was computed
     * from, so it is refused if the pod changed meanwhile (as an update with that resourceVersion would be).
     */
    public static String forPod(Pod before, Pod after, boolean guardResourceVersion) {
        return diff(before, after, guardResourceVersion, "/metadata/", "/spec/");
    }

    /** The changes to {@code status} (conditions), for the status subresource; "[]" when none. */
    public static String forStatus(Pod before, Pod after) {
        return diff(before, after, false, "/status/", null);
    }

    /** Whether a patch from this class changes nothing. */
    public static boolean isEmpty(String patch) {
        return patch == null || patch.equals("[]");
    }

    private static String diff(Pod before, Pod after, boolean guard, String prefix, String otherPrefix) {
        JsonNode a = ApiJson.serialization().convertValue(before, JsonNode.class);
        JsonNode b = ApiJson.serialization().convertValue(after, JsonNode.class);
        JsonNode ops = JsonDiff.asJson(a, b, DiffFlags.dontNormalizeOpIntoMoveAndCopy());
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (JsonNode op : ops) {
            String path = op.path("path").asText("");
            boolean inScope = path.startsWith(prefix) || (otherPrefix != null && path.startsWith(otherPrefix))
                    || wholeSection(path, prefix) || (otherPrefix != null && wholeSection(path, otherPrefix));
            if (!inScope || isServerField(path)) {
                continue;
            }
            out.add(op);
        }
        if (out.isEmpty()) {
            return "[]";
        }
        if (guard && before.getMetadata() != null && before.getMetadata().getResourceVersion() != null) {
            ObjectNode test = JsonNodeFactory.instance.objectNode();
            test.put("op", "test");
            test.put("path", "/metadata/resourceVersion");
            test.put("value", before.getMetadata().getResourceVersion());
            out.insert(0, test);
        }
        return out.toString();
    }

    private static boolean wholeSection(String path, String prefix) {
        return path.equals(prefix.substring(0, prefix.length() - 1));
    }

    private static boolean isServerField(String path) {
        for (String f : SERVER_FIELDS) {
            if (path.equals(f) || path.startsWith(f + "/")) {
                return true;
            }
        }
        return false;
    }
}
