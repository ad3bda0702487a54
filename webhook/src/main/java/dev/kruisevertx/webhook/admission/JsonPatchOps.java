package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An RFC 6902 patch kept compact until it is written. Defaulting a CloneSet of 100,000 containers yields 300,000
 * operations; as Jackson trees with their path strings they took 120 MB of heap, here an operation is a small record
 * whose path shares its prefix with its siblings' and whose value is the node of the changed tree itself (never
 * copied). {@link #writeTo} streams the operations; {@link #toArrayNode} builds the tree for callers that inspect it.
 */
public final class JsonPatchOps {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** The operations a diff emits. */
    public enum Kind {
        ADD("add"), REMOVE("remove"), REPLACE("replace");

        private final String op;

        Kind(String op) {
            this.op = op;
        }

        public String op() {
            return op;
        }
    }

    /** One token of a JSON pointer with its parent: {@code key} for an object member, else {@code index}. */
    public record Pointer(Pointer parent, String key, int index) {
        public static final Pointer ROOT = new Pointer(null, null, -1);

        public Pointer member(String name) {
            return new Pointer(this, name, -1);
        }

        public Pointer element(int i) {
            return new Pointer(this, null, i);
        }

        /** RFC 6901 text, {@code ""} for the root. */
        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            appendTo(b);
            return b.toString();
        }

        void appendTo(StringBuilder b) {
            if (parent == null) {
                return;
            }
            parent.appendTo(b);
            b.append('/');
            if (key == null) {
                b.append(index);
                return;
            }
            for (int i = 0; i < key.length(); i++) {
                char c = key.charAt(i);
                if (c == '~') {
                    b.append("~0");
                } else if (c == '/') {
                    b.append("~1");
                } else {
                    b.append(c);
                }
            }
        }
    }

    private record Op(Kind kind, Pointer path, JsonNode value) {
    }

    private final List<Op> ops = new ArrayList<>();
    /** Operations given as a tree (handlers that write patches by hand); null for a diff's own operations. */
    private final ArrayNode tree;

    private JsonPatchOps(ArrayNode tree) {
        this.tree = tree;
    }

    public static JsonPatchOps empty() {
        return new JsonPatchOps(null);
    }

    /** Wraps operations already built as a JSON array. */
    public static JsonPatchOps of(ArrayNode operations) {
        return new JsonPatchOps(operations);
    }

    void add(Kind kind, Pointer path, JsonNode value) {
        ops.add(new Op(kind, path, value));
    }

    public int size() {
        return tree != null ? tree.size() : ops.size();
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    /** Writes the operations as a JSON array. */
    public void writeTo(JsonGenerator gen) throws IOException {
        if (tree != null) {
            gen.writeTree(tree);
            return;
        }
        StringBuilder path = new StringBuilder(128);
        gen.writeStartArray();
        for (Op op : ops) {
            gen.writeStartObject();
            gen.writeStringField("op", op.kind().op());
            path.setLength(0);
            op.path().appendTo(path);
            gen.writeStringField("path", path.toString());
            if (op.value() != null) {
                gen.writeFieldName("value");
                gen.writeTree(op.value());
            }
            gen.writeEndObject();
        }
        gen.writeEndArray();
    }

    /** The operations as a JSON array (shares value nodes with the diffed tree). */
    public ArrayNode toArrayNode() {
        if (tree != null) {
            return tree;
        }
        ArrayNode out = NODES.arrayNode(ops.size());
        for (Op op : ops) {
            ObjectNode o = out.addObject();
            o.put("op", op.kind().op());
            o.put("path", op.path().toString());
            if (op.value() != null) {
                o.set("value", op.value());
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return size() + " JSON patch operations";
    }
}
