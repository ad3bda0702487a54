package dev.kruisevertx.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;

import java.io.IOException;
import java.util.Optional;

/**
 * The value of the {@value WorkloadSpreads#MATCHED_ANNOTATION} pod annotation, as OpenKruise writes it:
 * {@code {"name":"<ws>","subset":"<subset>"}}, with {@code "uid":"<id>"} after them when the pod was admitted without
 * a name and the creation was recorded under a generated id.
 *
 * @param uid the generated id, "" when the creation was recorded by pod name or not recorded
 */
public record MatchedWorkloadSpread(String name, String subset, String uid) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public MatchedWorkloadSpread {
        name = name == null ? "" : name;
        subset = subset == null ? "" : subset;
        uid = uid == null ? "" : uid;
    }

    /** The annotation value: name, subset, then uid only when not empty. */
    public String toAnnotationValue() {
        ObjectNode node = JSON.createObjectNode();
        node.put("name", name);
        node.put("subset", subset);
        if (!uid.isEmpty()) {
            node.put("uid", uid);
        }
        return node.toString();
    }

    /**
     * The annotation of a pod; empty when absent, empty, or not a JSON object (OpenKruise then treats the pod as
     * matched by no WorkloadSpread). Unknown fields are ignored; a field of the wrong type makes the value unreadable.
     */
    public static Optional<MatchedWorkloadSpread> of(HasMetadata pod) {
        return parse(Pods.annotations(pod).get(WorkloadSpreads.MATCHED_ANNOTATION));
    }

    /** See {@link #of}. */
    public static Optional<MatchedWorkloadSpread> parse(String value) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        JsonNode node;
        try {
            node = JSON.readTree(value);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (node == null || !node.isObject()) {
            return Optional.empty();
        }
        String[] fields = new String[3];
        String[] names = {"name", "subset", "uid"};
        for (int i = 0; i < names.length; i++) {
            JsonNode f = node.get(names[i]);
            if (f == null || f.isNull()) {
                continue;
            }
            if (!f.isTextual()) {
                return Optional.empty();
            }
            fields[i] = f.asText();
        }
        return Optional.of(new MatchedWorkloadSpread(fields[0], fields[1], fields[2]));
    }

    /** OpenKruise's {@code isNotMatchedWS} negated: the pod names this WorkloadSpread and a subset. */
    public boolean matches(String workloadSpreadName) {
        return name.equals(workloadSpreadName) && !subset.isEmpty();
    }
}
