package dev.kruisevertx.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;

/**
 * JSON merge patches (RFC 7386) between two versions of an object: only what changed, so fields the sender does
 * not hold (the server's managedFields, an annotation the lean watch cache dropped) are left as the server has them.
 */
public final class MergePatches {
    private MergePatches() {
    }

    /** The merge patch that turns {@code from} into {@code to}; an empty object when they are equal. */
    public static ObjectNode diff(JsonNode from, JsonNode to) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        if (!from.isObject() || !to.isObject()) {
            throw new IllegalArgumentException("a merge patch is computed between two JSON objects");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = to.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode old = from.get(e.getKey());
            JsonNode now = e.getValue();
            if (old == null || !old.equals(now)) {
                if (old != null && old.isObject() && now.isObject()) {
                    patch.set(e.getKey(), diff(old, now));
                } else {
                    // Lists and scalars are replaced whole; a null value in "to" is written as a removal, as the
                    // JSON a full update sends would have omitted it.
                    patch.set(e.getKey(), now.isNull() ? JsonNodeFactory.instance.nullNode() : now);
                }
            }
        }
        for (Iterator<String> it = from.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!to.has(name)) {
                patch.putNull(name);
            }
        }
        return patch;
    }
}
