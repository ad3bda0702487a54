package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** The three patch types kube-apiserver accepts besides server-side apply. */
public final class Patches {
    public static final String JSON_PATCH = "application/json-patch+json";
    public static final String MERGE_PATCH = "application/merge-patch+json";
    public static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
    public static final String APPLY_PATCH = "application/apply-patch+yaml";

    /**
     * Merge keys of lists that Kubernetes' built-in types declare with {@code patchStrategy: merge}, by field
     * name. The same field names carry the same keys wherever they appear (pod, pod template, status).
     */
    private static final Map<String, String> MERGE_KEYS = Map.ofEntries(
            Map.entry("containers", "name"),
            Map.entry("initContainers", "name"),
            Map.entry("ephemeralContainers", "name"),
            Map.entry("containerStatuses", "name"),
            Map.entry("initContainerStatuses", "name"),
            Map.entry("conditions", "type"),
            Map.entry("readinessGates", "conditionType"),
            Map.entry("volumes", "name"),
            Map.entry("volumeMounts", "mountPath"),
            Map.entry("volumeDevices", "devicePath"),
            Map.entry("env", "name"),
            Map.entry("ports", "containerPort"),
            Map.entry("imagePullSecrets", "name"),
            Map.entry("ownerReferences", "uid"),
            Map.entry("hostAliases", "ip"),
            Map.entry("topologySpreadConstraints", "topologyKey"));

    /** Primitive lists merged as sets. */
    private static final java.util.Set<String> MERGED_PRIMITIVE_LISTS = java.util.Set.of("finalizers");

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
                throw new ApiException(415, "UnsupportedMediaType", "server-side apply is not supported by the embedded API server; use a merge or strategic merge patch");
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

    /**
     * Strategic merge: like a merge patch, but lists with a known merge key are merged element by element
     * ({@code $patch: delete} removes an element, {@code $patch: replace} replaces the whole list or map),
     * and {@code $setElementOrder}/{@code $retainKeys} directives are accepted and ignored.
     */
    public static ObjectNode strategicMerge(JsonNode target, ObjectNode patch) {
        if ("replace".equals(patch.path("$patch").asText())) {
            ObjectNode copy = patch.deepCopy();
            copy.remove("$patch");
            return copy;
        }
        ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy()
                : JsonNodeFactory.instance.objectNode();
        Iterator<Map.Entry<String, JsonNode>> fields = patch.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            String name = f.getKey();
            JsonNode value = f.getValue();
            if (name.startsWith("$")) {
                if (name.startsWith("$deleteFromPrimitiveList/") && value.isArray()) {
                    String list = name.substring("$deleteFromPrimitiveList/".length());
                    JsonNode existing = result.get(list);
                    if (existing instanceof ArrayNode arr) {
                        ArrayNode kept = arr.arrayNode();
                        arr.forEach(e -> {
                            if (!contains((ArrayNode) value, e)) {
                                kept.add(e);
                            }
                        });
                        result.set(list, kept);
                    }
                }
                continue;
            }
            if (value.isNull()) {
                result.remove(name);
            } else if (value.isObject()) {
                result.set(name, strategicMerge(result.get(name), (ObjectNode) value));
            } else if (value.isArray() && MERGE_KEYS.containsKey(name) && result.get(name) instanceof ArrayNode existing) {
                result.set(name, mergeList(existing, (ArrayNode) value, MERGE_KEYS.get(name)));
            } else if (value.isArray() && MERGED_PRIMITIVE_LISTS.contains(name) && result.get(name) instanceof ArrayNode existing) {
                ArrayNode merged = existing.deepCopy();
                value.forEach(e -> {
                    if (!contains(merged, e)) {
                        merged.add(e);
                    }
                });
                result.set(name, merged);
            } else if (value.isArray()) {
                result.set(name, stripDirectives((ArrayNode) value));
            } else {
                result.set(name, value.deepCopy());
            }
        }
        return result;
    }

    private static ArrayNode mergeList(ArrayNode existing, ArrayNode patch, String mergeKey) {
        for (JsonNode e : patch) {
            if (e.isObject() && "replace".equals(e.path("$patch").asText())) {
                ArrayNode replaced = patch.arrayNode();
                patch.forEach(p -> {
                    if (!p.has("$patch")) {
                        replaced.add(p.deepCopy());
                    }
                });
                return replaced;
            }
        }
        Map<String, JsonNode> byKey = new LinkedHashMap<>();
        ArrayNode unkeyed = existing.arrayNode();
        for (JsonNode e : existing) {
            JsonNode k = e.get(mergeKey);
            if (k == null) {
                unkeyed.add(e);
            } else {
                byKey.put(k.asText(), e);
            }
        }
        for (JsonNode p : patch) {
            JsonNode k = p.get(mergeKey);
            if (!p.isObject() || k == null) {
                unkeyed.add(p.deepCopy());
                continue;
            }
            if ("delete".equals(p.path("$patch").asText())) {
                byKey.remove(k.asText());
                continue;
            }
            JsonNode current = byKey.get(k.asText());
            byKey.put(k.asText(), strategicMerge(current, (ObjectNode) p));
        }
        ArrayNode out = existing.arrayNode();
        byKey.values().forEach(out::add);
        unkeyed.forEach(out::add);
        return out;
    }

    private static ArrayNode stripDirectives(ArrayNode list) {
        ArrayNode out = list.arrayNode();
        for (JsonNode e : list) {
            if (e.isObject() && e.has("$patch")) {
                if ("delete".equals(e.path("$patch").asText())) {
                    continue;
                }
                ObjectNode copy = ((ObjectNode) e).deepCopy();
                copy.remove("$patch");
                out.add(copy);
            } else {
                out.add(e.deepCopy());
            }
        }
        return out;
    }

    private static boolean contains(ArrayNode arr, JsonNode e) {
        for (JsonNode x : arr) {
            if (x.equals(e)) {
                return true;
            }
        }
        return false;
    }
}
