package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;

/**
 * RFC 6902 patch between two JSON trees in time linear in their size: objects are compared key by key, arrays
 * position by position (changed elements are patched in place, a longer array gets its tail added, a shorter one its
 * tail removed from the end). A diff library finding the longest common subsequence of two arrays (zjsonpatch,
 * JSON-P's) costs quadratic time or memory, which one CloneSet with 40,000 containers turned into seconds of event
 * loop and an OutOfMemoryError; none of them offers a positional mode, hence this small walk. A positional patch of an
 * insertion in the middle of an array is longer than a minimal one but equally correct. OpenKruise's Go webhooks
 * (gomodules jsonpatch) also compare arrays of equal length by position, so for the common case (defaults added to
 * existing elements; an image changed in place) the operations are the same.
 */
public final class PositionalJsonDiff {
    private PositionalJsonDiff() {
    }

    /** Operations that turn {@code source} into {@code target}: add, remove and replace only. */
    public static JsonPatchOps diff(JsonNode source, JsonNode target) {
        JsonPatchOps ops = JsonPatchOps.empty();
        walk(source, target, JsonPatchOps.Pointer.ROOT, ops);
        return ops;
    }

    private static void walk(JsonNode source, JsonNode target, JsonPatchOps.Pointer path, JsonPatchOps ops) {
        if (source instanceof ObjectNode from && target instanceof ObjectNode to) {
            objects(from, to, path, ops);
        } else if (source instanceof ArrayNode from && target instanceof ArrayNode to) {
            arrays(from, to, path, ops);
        } else if (!source.equals(target)) {
            // Scalars compare in constant time; an object against an array or a scalar is replaced whole.
            ops.add(JsonPatchOps.Kind.REPLACE, path, target);
        }
    }

    private static void objects(ObjectNode from, ObjectNode to, JsonPatchOps.Pointer path, JsonPatchOps ops) {
        for (Iterator<Map.Entry<String, JsonNode>> it = from.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode next = to.get(e.getKey());
            if (next == null) {
                ops.add(JsonPatchOps.Kind.REMOVE, path.member(e.getKey()), null);
            } else if (e.getValue() != next) {
                walk(e.getValue(), next, path.member(e.getKey()), ops);
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = to.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!from.has(e.getKey())) {
                ops.add(JsonPatchOps.Kind.ADD, path.member(e.getKey()), e.getValue());
            }
        }
    }

    private static void arrays(ArrayNode from, ArrayNode to, JsonPatchOps.Pointer path, JsonPatchOps ops) {
        int common = Math.min(from.size(), to.size());
        for (int i = 0; i < common; i++) {
            if (from.get(i) != to.get(i)) {
                walk(from.get(i), to.get(i), path.element(i), ops);
            }
        }
        // Each add lands at the current end of the array, so indexes stay valid as the operations apply in order.
        for (int i = common; i < to.size(); i++) {
            ops.add(JsonPatchOps.Kind.ADD, path.element(i), to.get(i));
        }
        // Removing from the end keeps the indexes of the elements still to be removed unchanged.
        for (int i = from.size() - 1; i >= common; i--) {
            ops.add(JsonPatchOps.Kind.REMOVE, path.element(i), null);
        }
    }
}
