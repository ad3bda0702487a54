package dev.kruisevertx.revision;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The data of ControllerRevisions as every workload compares and hashes it: canonical JSON with sorted keys, so
 * equal templates give equal bytes, and equality that ignores null and empty fields, so revisions written by
 * OpenKruise's Go serializer (which omits them) are recognised as the same template.
 */
public final class RevisionData {
    /** A mapper that writes map entries sorted by key. */
    public static final ObjectMapper SORTED = Serialization.jsonMapper().copy()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private RevisionData() {
    }

    /** The canonical bytes of revision data (the input of {@link RevisionHash#of}). */
    public static byte[] bytes(JsonNode data) {
        try {
            return SORTED.writeValueAsString(data).getBytes(StandardCharsets.UTF_8);
        } catch (Exception e) {
            throw new IllegalStateException("cannot serialize revision data: " + e.getMessage(), e);
        }
    }

    /** A copy of {@code node} whose object keys are sorted. */
    public static JsonNode sortKeys(JsonNode node) {
        return SORTED.convertValue(SORTED.convertValue(node, Object.class), JsonNode.class);
    }

    /** Whether a stored revision holds {@code data}, ignoring null and empty fields. */
    public static boolean sameData(ControllerRevision revision, JsonNode data) {
        if (revision.getData() == null) {
            return false;
        }
        JsonNode stored = SORTED.valueToTree(revision.getData());
        // Compared as canonical text: a revision read back from the API holds 30 as an int where a template
        // gives a long, and JsonNode equality tells IntNode(30) from LongNode(30).
        return new String(bytes(sortKeys(prune(stored.deepCopy()))), StandardCharsets.UTF_8)
                .equals(new String(bytes(sortKeys(prune(data.deepCopy()))), StandardCharsets.UTF_8));
    }

    /** Revisions in ascending revision number (name breaks ties so the order is total). */
    public static List<ControllerRevision> sorted(List<ControllerRevision> revisions) {
        List<ControllerRevision> out = new ArrayList<>(revisions);
        out.sort(Comparator.comparing((ControllerRevision r) -> r.getRevision() == null ? 0L : r.getRevision())
                .thenComparing(r -> r.getMetadata().getName()));
        return out;
    }

    /** Drops nulls, empty objects and empty arrays, recursively, in place. */
    public static JsonNode prune(JsonNode node) {
        if (node instanceof ObjectNode o) {
            Iterator<Map.Entry<String, JsonNode>> it = o.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = prune(e.getValue());
                if (v.isNull() || (v.isContainerNode() && v.isEmpty())) {
                    it.remove();
                }
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                a.set(i, prune(a.get(i)));
            }
        }
        return node;
    }
}
