package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * One part of an object (say {@code status}) that two API versions spell differently, converted so that a round trip
 * through the other version gives the part back unchanged even where the other version has no place for a value.
 *
 * <p>Going from version A to B, the part is converted with {@code toB}; when {@code toA} would not give the original
 * back (a value B cannot hold, an unknown field that collides with a renamed one), the original A part is kept aside
 * as JSON in the annotation {@code keptInB} of the B object. Going back, a kept part is used only while it still
 * converts to the part the B object holds (so an edit made through B wins over a stale copy), and the annotation is
 * removed either way. The two annotation keys are reserved: a user's value under them is read as a kept part.
 *
 * @param path    the field names leading to the part, e.g. {@code [spec, template, cloneSetTemplate]}
 * @param keptInB the annotation on a B object holding an A part; {@code keptInA} the converse
 */
record LosslessPart(List<String> path, String keptInB, String keptInA) {
    private static final ObjectMapper JSON = new ObjectMapper();

    LosslessPart {
        path = List.copyOf(path);
    }

    /**
     * Converts this part of {@code out} (a copy being converted from A to B) in place.
     *
     * @param toB the plain conversion A -> B of the part (null in, null out: an absent part stays absent)
     * @param toA the plain conversion B -> A
     */
    void convert(ObjectNode out, UnaryOperator<JsonNode> toB, UnaryOperator<JsonNode> toA) {
        JsonNode part = get(out);
        JsonNode kept = takeAnnotation(out, keptInA);
        if (part == null) {
            return;
        }
        if (kept != null && Objects.equals(safe(toA, kept), part)) {
            set(out, kept); // the B original this A part was converted from
            return;
        }
        JsonNode converted = toB.apply(part.deepCopy());
        if (!Objects.equals(safe(toA, converted == null ? null : converted.deepCopy()), part)) {
            putAnnotation(out, keptInB, part);
        }
        set(out, converted);
    }

    /** The same part seen from B: converts a B object's part to A. */
    LosslessPart reversed() {
        return new LosslessPart(path, keptInA, keptInB);
    }

    private static JsonNode safe(UnaryOperator<JsonNode> f, JsonNode v) {
        try {
            return v == null ? null : f.apply(v.deepCopy());
        } catch (IllegalArgumentException e) {
            return null; // cannot be converted back: not a round trip
        }
    }

    private JsonNode get(ObjectNode root) {
        JsonNode node = root;
        for (String field : path) {
            if (!(node instanceof ObjectNode o)) {
                return null;
            }
            node = o.get(field);
        }
        return node;
    }

    private void set(ObjectNode root, JsonNode value) {
        ObjectNode node = root;
        for (String field : path.subList(0, path.size() - 1)) {
            if (!(node.get(field) instanceof ObjectNode child)) {
                return; // only reached for parts that exist, whose parents are objects
            }
            node = child;
        }
        String last = path.get(path.size() - 1);
        if (value == null) {
            node.remove(last);
        } else {
            node.set(last, value);
        }
    }

    private static JsonNode takeAnnotation(ObjectNode root, String key) {
        if (!(root.get("metadata") instanceof ObjectNode metadata)
                || !(metadata.get("annotations") instanceof ObjectNode annotations) || !annotations.has(key)) {
            return null;
        }
        JsonNode text = annotations.remove(key);
        if (annotations.isEmpty()) {
            metadata.remove("annotations");
            if (metadata.isEmpty()) {
                root.remove("metadata"); // made for the annotation (real objects always have a name)
            }
        }
        try {
            return text.isTextual() ? JSON.readTree(text.asText()) : null;
        } catch (JsonProcessingException e) {
            return null; // not a part this conversion wrote: dropped like a stale one
        }
    }

    private static void putAnnotation(ObjectNode root, String key, JsonNode part) {
        JsonNode metadata = root.get("metadata");
        if (metadata != null && !metadata.isNull() && !metadata.isObject()) {
            return; // not an object: left for validation to name
        }
        ObjectNode m = metadata instanceof ObjectNode o ? o : root.putObject("metadata");
        JsonNode annotations = m.get("annotations");
        if (annotations != null && !annotations.isNull() && !annotations.isObject()) {
            return;
        }
        ObjectNode a = annotations instanceof ObjectNode o ? o : m.putObject("annotations");
        a.put(key, part.toString());
    }
}
