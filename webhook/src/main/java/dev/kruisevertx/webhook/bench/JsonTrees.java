package dev.kruisevertx.webhook.bench;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.Json;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** JSON trees and bytes as the hostile generator edits them: pointers, sets that create parents, raw byte search. */
public final class JsonTrees {
    private JsonTrees() {
    }

    static byte[] bytes(JsonNode node) {
        try {
            return Json.MAPPER.writeValueAsBytes(node);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot write a generated review", e);
        }
    }

    static String bodyText(JsonNode node) {
        return new String(bytes(node), StandardCharsets.UTF_8);
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Pointers of every field and array element below {@code node}, in document order. */
    public static void collectPointers(JsonNode node, String at, List<String> out) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String child = at + "/" + e.getKey().replace("~", "~0").replace("/", "~1");
                out.add(child);
                collectPointers(e.getValue(), child, out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String child = at + "/" + i;
                out.add(child);
                collectPointers(node.get(i), child, out);
            }
        }
    }

    /** Sets {@code value} at {@code pointer}, creating missing parents as objects and replacing scalars on the way. */
    static void set(ObjectNode root, String pointer, JsonNode value) {
        JsonPointer p = JsonPointer.compile(pointer);
        JsonNode parent = root;
        for (JsonPointer head = p; head.tail() != null && !head.tail().matches(); head = head.tail()) {
            JsonNode next = parent.isArray() ? parent.get(head.getMatchingIndex()) : parent.get(head.getMatchingProperty());
            if (next == null || !next.isContainerNode()) {
                if (!parent.isObject()) {
                    return;
                }
                next = ((ObjectNode) parent).putObject(head.getMatchingProperty());
            }
            parent = next;
        }
        JsonPointer last = p.last();
        if (parent.isArray()) {
            ArrayNode array = (ArrayNode) parent;
            int at = last.getMatchingIndex();
            if (at >= 0 && at < array.size()) {
                array.set(at, value);
            } else {
                array.add(value);
            }
        } else {
            ((ObjectNode) parent).set(last.getMatchingProperty(), value);
        }
    }

    static void remove(ObjectNode root, String pointer) {
        JsonPointer p = JsonPointer.compile(pointer);
        JsonNode parent = root.at(p.head());
        JsonPointer last = p.last();
        if (parent instanceof ObjectNode o) {
            o.remove(last.getMatchingProperty());
        } else if (parent instanceof ArrayNode a && last.getMatchingIndex() >= 0 && last.getMatchingIndex() < a.size()) {
            a.remove(last.getMatchingIndex());
        }
    }
}
