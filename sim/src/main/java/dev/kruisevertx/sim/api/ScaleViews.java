package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** The {@code /scale} subresource's view of an object: replicas and selector at the paths its type declares. */
final class ScaleViews {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ScaleViews() {
    }

    /** The type's scale subresource; 404 when it has none. */
    static ResourceType.ScaleSubresource scaleOf(ResourceType type) {
        if (type.scale() == null) {
            throw new ApiException(404, "NotFound", "the server could not find the requested resource (" + type.plural() + "/scale)");
        }
        return type.scale();
    }

    /** An autoscaling/v1 Scale of {@code o}, read from the paths its type declares. */
    static ObjectNode view(ResourceType.ScaleSubresource scale, ObjectNode o) {
        ObjectNode s = JSON.objectNode();
        s.put("kind", "Scale").put("apiVersion", "autoscaling/v1");
        ObjectNode meta = s.putObject("metadata");
        JsonNode om = o.path("metadata");
        for (String f : List.of("name", "namespace", "uid", "resourceVersion", "creationTimestamp")) {
            if (om.has(f)) {
                meta.set(f, om.get(f));
            }
        }
        s.putObject("spec").put("replicas", JsonPaths.at(o, scale.specReplicasPath()).asInt(0));
        ObjectNode status = s.putObject("status");
        status.put("replicas", JsonPaths.at(o, scale.statusReplicasPath()).asInt(0));
        if (!scale.labelSelectorPath().isEmpty()) {
            JsonNode sel = JsonPaths.at(o, scale.labelSelectorPath());
            if (sel.isTextual()) {
                status.put("selector", sel.asText());
            } else if (sel.isObject()) {
                status.put("selector", selectorString(sel));
            }
        }
        return s;
    }

    /** A metav1.LabelSelector in its query-string form, as the Scale subresource reports it. */
    static String selectorString(JsonNode selector) {
        List<String> parts = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> labels = selector.path("matchLabels").fields();
        while (labels.hasNext()) {
            Map.Entry<String, JsonNode> e = labels.next();
            parts.add(e.getKey() + "=" + e.getValue().asText());
        }
        for (JsonNode r : selector.path("matchExpressions")) {
            String key = r.path("key").asText();
            List<String> values = new ArrayList<>();
            r.path("values").forEach(v -> values.add(v.asText()));
            switch (r.path("operator").asText()) {
                case "In" -> parts.add(key + " in (" + String.join(",", values) + ")");
                case "NotIn" -> parts.add(key + " notin (" + String.join(",", values) + ")");
                case "Exists" -> parts.add(key);
                case "DoesNotExist" -> parts.add("!" + key);
                default -> {
                }
            }
        }
        return String.join(",", parts);
    }
}
