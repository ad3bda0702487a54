package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Small helpers for reading and writing Kubernetes objects held as Jackson trees. */
public final class JsonPaths {
    private JsonPaths() {
    }

    public record Meta(String namespace, String name, String uid) {
    }

    public static Meta meta(JsonNode object) {
        JsonNode m = object.path("metadata");
        return new Meta(m.path("namespace").asText(null), m.path("name").asText(null), m.path("uid").asText(null));
    }

    public static ObjectNode metadata(ObjectNode object) {
        JsonNode m = object.get("metadata");
        if (m instanceof ObjectNode o) {
            return o;
        }
        return object.putObject("metadata");
    }

    /** Reads a dotted path such as {@code .spec.replicas}; MissingNode when absent. */
    public static JsonNode at(JsonNode object, String dotted) {
        JsonNode cur = object;
        for (String part : split(dotted)) {
            cur = cur.path(part);
        }
        return cur;
    }

    /** Writes a dotted path, creating intermediate objects. */
    public static void set(ObjectNode object, String dotted, JsonNode value) {
        String[] parts = split(dotted);
        ObjectNode cur = object;
        for (int i = 0; i < parts.length - 1; i++) {
            JsonNode next = cur.get(parts[i]);
            cur = next instanceof ObjectNode o ? o : cur.putObject(parts[i]);
        }
        cur.set(parts[parts.length - 1], value);
    }

    private static String[] split(String dotted) {
        String p = dotted.startsWith(".") ? dotted.substring(1) : dotted;
        return p.isEmpty() ? new String[0] : p.split("\\.");
    }

    public static boolean missing(JsonNode n) {
        return n == null || n instanceof MissingNode || n.isNull();
    }
}
