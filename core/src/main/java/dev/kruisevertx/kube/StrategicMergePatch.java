package dev.kruisevertx.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Kubernetes' strategic merge patch over JSON trees of built-in types (pods, pod templates): used by the embedded
 * API server for {@code application/strategic-merge-patch+json} and by code that applies a user's patch to a pod
 * the way OpenKruise does (WorkloadSpread subset patches). Pure; the target is never modified.
 */
public final class StrategicMergePatch {
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

    private StrategicMergePatch() {
    }

    /**
     * Strategic merge: like a merge patch, but lists with a known merge key are merged element by element
     * ({@code $patch: delete} removes an element, {@code $patch: replace} replaces the whole list or map),
     * and {@code $setElementOrder}/{@code $retainKeys} directives are accepted and ignored.
     */
    public static ObjectNode apply(JsonNode target, ObjectNode patch) {
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
                result.set(name, apply(result.get(name), (ObjectNode) value));
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
            byKey.put(k.asText(), apply(current, (ObjectNode) p));
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
