package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Converts WorkloadSpreads between v1alpha1 (the hub, stored, as in OpenKruise v1.9.0) and v1beta1 (served), as JSON
 * trees so that fields this model does not know pass through untouched. The versions differ in:
 * <ul>
 *   <li>{@code spec.subsets[].requiredNodeSelectorTerm} is v1beta1's {@code requiredNodeSelector} and
 *       {@code preferredNodeSelectorTerms} is {@code preferredNodeSelector} (same contents);</li>
 *   <li>subset conditions (in {@code status.subsetStatuses} and every list of
 *       {@code status.versionedSubsetStatuses}) are {@code metav1.Condition}s in v1beta1, whose reason may not be
 *       empty: as in OpenKruise's master an empty or missing v1alpha1 reason reads {@code "Unknown"} in v1beta1, and
 *       v1beta1's {@code "Unknown"} is v1alpha1's {@code ""} (what this project's controller writes).</li>
 * </ul>
 * Unlike OpenKruise's master (which turns {@code ""} and a missing reason into {@code "Unknown"} for good and drops a
 * v1beta1 condition's {@code observedGeneration}), nothing is lost either way: a reason the mapping above would not
 * bring back (a missing one or a real {@code "Unknown"} in v1alpha1; an empty or missing one in v1beta1) is recorded
 * in the annotation {@link #ALPHA_REASONS} (on the v1beta1 object) or {@link #BETA_REASONS} (on the v1alpha1 one),
 * keyed by the condition's place, and restored by the way back when the condition there still reads as converted;
 * a condition's {@code observedGeneration} stays in the v1alpha1 condition under the same name (an unknown field
 * there). A key that spells the other version's field (say {@code requiredNodeSelector} in a v1alpha1 subset) is
 * refused, since it would take that field's place.
 */
public final class WorkloadSpreadConversion {
    public static final String ALPHA = dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread.API_VERSION;
    public static final String BETA = WorkloadSpread.API_VERSION;
    /** On a v1beta1 object: v1alpha1 reasons the v1beta1 form shows as "Unknown" ({@code null} = missing). */
    public static final String ALPHA_REASONS = "kruise-vertx.dev/workloadspread-v1alpha1-condition-reasons";
    /** On a v1alpha1 object: v1beta1 reasons that were empty or missing ({@code null} = missing). */
    public static final String BETA_REASONS = "kruise-vertx.dev/workloadspread-v1beta1-condition-reasons";
    static final String UNKNOWN = "Unknown";
    private static final com.fasterxml.jackson.databind.ObjectMapper READER =
            new com.fasterxml.jackson.databind.ObjectMapper();
    /** v1alpha1 subset field -> v1beta1 subset field. */
    private static final Map<String, String> SUBSET_RENAMES = Map.of(
            "requiredNodeSelectorTerm", "requiredNodeSelector",
            "preferredNodeSelectorTerms", "preferredNodeSelector");

    private WorkloadSpreadConversion() {
    }

    /**
     * A v1alpha1 WorkloadSpread as v1beta1; the input is not modified.
     *
     * @throws IllegalArgumentException when a subset holds a key named like a v1beta1 field
     */
    public static ObjectNode toV1beta1(JsonNode alpha) {
        ObjectNode out = copyOf(alpha, ALPHA);
        out.put("apiVersion", BETA);
        renameSubsetFields(out, true);
        ObjectNode kept = takeAnnotation(out, BETA_REASONS);
        takeAnnotation(out, ALPHA_REASONS); // reserved: only this conversion writes it
        ObjectNode record = JsonNodeFactory.instance.objectNode();
        forEachCondition(out, (place, condition) -> {
            JsonNode reason = condition.get("reason");
            boolean wasMapped = reason == null || "".equals(textOrNull(reason));
            JsonNode restored = kept == null ? null : kept.get(place);
            if (kept != null && kept.has(place) && wasMapped) {
                // The v1beta1 reason this "" or missing one came from.
                setReason(condition, restored);
                return;
            }
            if (reason == null || "".equals(textOrNull(reason))) {
                if (reason == null) {
                    record.putNull(place);
                }
                condition.put("reason", UNKNOWN);
            } else if (UNKNOWN.equals(textOrNull(reason))) {
                record.put(place, UNKNOWN);
            }
        });
        putAnnotation(out, ALPHA_REASONS, record);
        return out;
    }

    /**
     * A v1beta1 WorkloadSpread as v1alpha1; the input is not modified.
     *
     * @throws IllegalArgumentException when a subset holds a key named like a v1alpha1 field
     */
    public static ObjectNode toV1alpha1(JsonNode beta) {
        ObjectNode out = copyOf(beta, BETA);
        out.put("apiVersion", ALPHA);
        renameSubsetFields(out, false);
        ObjectNode kept = takeAnnotation(out, ALPHA_REASONS);
        takeAnnotation(out, BETA_REASONS);
        ObjectNode record = JsonNodeFactory.instance.objectNode();
        forEachCondition(out, (place, condition) -> {
            JsonNode reason = condition.get("reason");
            if (UNKNOWN.equals(textOrNull(reason))) {
                if (kept != null && kept.has(place)) {
                    setReason(condition, kept.get(place));
                } else {
                    condition.put("reason", "");
                }
            } else if (reason == null || "".equals(textOrNull(reason))) {
                // v1alpha1 holds it as is, but would read back as "Unknown": remember it.
                if (reason == null) {
                    record.putNull(place);
                } else {
                    record.put(place, "");
                }
            }
        });
        putAnnotation(out, BETA_REASONS, record);
        return out;
    }

    /** Typed form of {@link #toV1beta1(JsonNode)}. */
    public static WorkloadSpread toV1beta1(dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread alpha) {
        JsonNode tree = ApiJson.serialization().convertValue(alpha, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1beta1(tree), WorkloadSpread.class);
    }

    /** Typed form of {@link #toV1alpha1(JsonNode)}. */
    public static dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread toV1alpha1(WorkloadSpread beta) {
        JsonNode tree = ApiJson.serialization().convertValue(beta, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1alpha1(tree),
                dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread.class);
    }

    /** A v1alpha1 field path in its v1beta1 spelling (for messages about a v1beta1 object judged as v1alpha1). */
    public static String betaPath(String alphaPath) {
        if (alphaPath == null || !alphaPath.startsWith("spec.subsets[")) {
            return alphaPath;
        }
        String out = alphaPath;
        for (Map.Entry<String, String> e : SUBSET_RENAMES.entrySet()) {
            out = out.replaceFirst("^(spec\\.subsets\\[\\d+\\]\\.)" + e.getKey() + "(?=$|[.\\[])", "$1" + e.getValue());
        }
        return out;
    }

    private static void renameSubsetFields(ObjectNode root, boolean toBeta) {
        if (!(root.path("spec").get("subsets") instanceof ArrayNode subsets)) {
            return; // absent, or not a list: left for validation to name
        }
        for (int i = 0; i < subsets.size(); i++) {
            if (!(subsets.get(i) instanceof ObjectNode subset)) {
                continue;
            }
            // Rebuilt in place order so the converted subset lists its keys as the source did.
            ObjectNode rebuilt = JsonNodeFactory.instance.objectNode();
            Iterator<Map.Entry<String, JsonNode>> fields = subset.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> e = fields.next();
                String key = e.getKey();
                String target = toBeta ? SUBSET_RENAMES.get(key) : alphaName(key);
                if ((toBeta ? alphaName(key) : SUBSET_RENAMES.get(key)) != null) {
                    throw new IllegalArgumentException("spec.subsets[" + i + "]." + key + ": field not declared in "
                            + "schema: " + (toBeta ? "v1alpha1 spells it " + alphaName(key)
                            : "v1beta1 spells it " + SUBSET_RENAMES.get(key)));
                }
                rebuilt.set(target != null ? target : key, e.getValue());
            }
            subsets.set(i, rebuilt);
        }
    }

    private static String alphaName(String betaName) {
        for (Map.Entry<String, String> e : SUBSET_RENAMES.entrySet()) {
            if (e.getValue().equals(betaName)) {
                return e.getKey();
            }
        }
        return null;
    }

    @FunctionalInterface
    private interface ConditionVisitor {
        void visit(String place, ObjectNode condition);
    }

    /** Visits every subset condition with a stable name for its place (a JSON array of the path steps). */
    private static void forEachCondition(ObjectNode root, ConditionVisitor visitor) {
        JsonNode status = root.get("status");
        if (!(status instanceof ObjectNode)) {
            return;
        }
        visitStatuses(status.get("subsetStatuses"), List.of("subsetStatuses"), visitor);
        if (status.get("versionedSubsetStatuses") instanceof ObjectNode versioned) {
            versioned.fields().forEachRemaining(e ->
                    visitStatuses(e.getValue(), List.of("versionedSubsetStatuses", e.getKey()), visitor));
        }
    }

    private static void visitStatuses(JsonNode statuses, List<Object> prefix, ConditionVisitor visitor) {
        if (!(statuses instanceof ArrayNode list)) {
            return;
        }
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i).get("conditions") instanceof ArrayNode conditions)) {
                continue;
            }
            for (int j = 0; j < conditions.size(); j++) {
                if (conditions.get(j) instanceof ObjectNode condition) {
                    List<Object> place = new ArrayList<>(prefix);
                    place.add(i);
                    place.add(j);
                    visitor.visit(placeName(place), condition);
                }
            }
        }
    }

    private static String placeName(List<Object> place) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (Object step : place) {
            if (step instanceof Integer n) {
                a.add(n);
            } else {
                a.add((String) step);
            }
        }
        return a.toString();
    }

    private static void setReason(ObjectNode condition, JsonNode reason) {
        if (reason == null || reason.isNull()) {
            condition.remove("reason");
        } else {
            condition.set("reason", reason);
        }
    }

    /** Removes an annotation and returns its JSON object value (null when absent or not a JSON object). */
    private static ObjectNode takeAnnotation(ObjectNode root, String key) {
        if (!(root.get("metadata") instanceof ObjectNode metadata)
                || !(metadata.get("annotations") instanceof ObjectNode annotations) || !annotations.has(key)) {
            return null;
        }
        JsonNode value = annotations.remove(key);
        if (annotations.isEmpty()) {
            metadata.remove("annotations");
        }
        if (value == null || !value.isTextual()) {
            return null;
        }
        try {
            return READER.readTree(value.asText()) instanceof ObjectNode o ? o : null;
        } catch (IOException e) {
            return null; // not ours, or edited by hand: the plain mapping applies
        }
    }

    private static void putAnnotation(ObjectNode root, String key, ObjectNode record) {
        if (record.isEmpty()) {
            return;
        }
        ObjectNode metadata = root.get("metadata") instanceof ObjectNode m ? m : root.putObject("metadata");
        ObjectNode annotations = metadata.get("annotations") instanceof ObjectNode a ? a
                : metadata.putObject("annotations");
        annotations.put(key, record.toString());
    }

    private static String textOrNull(JsonNode node) {
        return node != null && node.isTextual() ? node.asText() : null;
    }

    private static ObjectNode copyOf(JsonNode object, String expected) {
        if (object == null || !object.isObject()) {
            throw new IllegalArgumentException("a WorkloadSpread to convert must be a JSON object");
        }
        String apiVersion = object.path("apiVersion").asText("");
        if (!apiVersion.equals(expected)) {
            throw new IllegalArgumentException("expected a WorkloadSpread of " + expected + ", got apiVersion '"
                    + apiVersion + "'");
        }
        return ((ObjectNode) object).deepCopy();
    }
}
