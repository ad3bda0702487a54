package dev.kruisevertx.api.policy.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.api.policy.v1alpha1.PubOperation;

import java.util.ArrayList;
import java.util.List;

/**
 * Converts PodUnavailableBudgets between v1alpha1 (the hub, stored) and v1beta1 (served), as JSON trees so that fields
 * this model does not know pass through untouched. The versions differ only in two v1alpha1 annotations that v1beta1
 * spells as typed spec fields:
 * <ul>
 *   <li>{@link WellKnown#PUB_PROTECT_OPERATIONS_ANNOTATION} {@code "DELETE,EVICT"} is
 *       {@code spec.protectOperations: [DELETE, EVICT]};</li>
 *   <li>{@link WellKnown#PUB_PROTECT_TOTAL_REPLICAS_ANNOTATION} {@code "5"} is {@code spec.protectTotalReplicas: 5}.</li>
 * </ul>
 * Going to v1alpha1, a field is written to its annotation and an annotation the field stood for is removed when the
 * field is unset or empty, as OpenKruise's master does. Unlike OpenKruise (which refuses the conversion), an
 * annotation whose text is not the canonical spelling of a field value ({@code "DELETE, EVICT"}, {@code "007"},
 * {@code "abc"}) stays an annotation in v1beta1, so round trips in either direction change nothing. An empty
 * {@code protectOperations} list reads back as unset (the same meaning: the default operations).
 *
 * <p>{@code spec.ignoredPodSelector}, which v1alpha1 has no place for (OpenKruise drops it), is kept in the v1alpha1
 * annotation {@link #BETA_FIELDS_ANNOTATION} as {@code {"ignoredPodSelector":{...}}} (an annotation survives the
 * pruning of the stored v1alpha1 object) and read back from it.
 */
public final class PodUnavailableBudgetConversion {
    public static final String GROUP = dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget.GROUP;
    public static final String ALPHA = dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget.API_VERSION;
    public static final String BETA = GROUP + "/v1beta1";
    private static final String OPS = WellKnown.PUB_PROTECT_OPERATIONS_ANNOTATION;
    private static final String TOTAL = WellKnown.PUB_PROTECT_TOTAL_REPLICAS_ANNOTATION;
    /** The v1alpha1 annotation holding the v1beta1-only spec fields, as compact JSON. */
    public static final String BETA_FIELDS_ANNOTATION = "policy.kruise.io/v1beta1-spec-fields";
    private static final String IGNORED = "ignoredPodSelector";
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private PodUnavailableBudgetConversion() {
    }

    /** A v1alpha1 PodUnavailableBudget as v1beta1; the input is not modified. */
    public static ObjectNode toV1beta1(JsonNode alpha) {
        ObjectNode out = copyOf(alpha, ALPHA);
        out.put("apiVersion", BETA);
        ObjectNode metadata = out.get("metadata") instanceof ObjectNode m ? m : null;
        ObjectNode annotations = metadata != null && metadata.get("annotations") instanceof ObjectNode a ? a : null;
        if (annotations == null) {
            return out;
        }
        JsonNode spec = out.get("spec");
        if (spec != null && !spec.isNull() && !spec.isObject()) {
            return out; // not an object: left for validation to name
        }
        ObjectNode specObject = spec instanceof ObjectNode s ? s : null;
        ArrayNode ops = canonicalOperations(annotations.get(OPS));
        if (ops != null) {
            specObject = specObject != null ? specObject : out.putObject("spec");
            specObject.set("protectOperations", ops);
            annotations.remove(OPS);
        }
        Integer total = canonicalInt(annotations.get(TOTAL));
        if (total != null) {
            specObject = specObject != null ? specObject : out.putObject("spec");
            specObject.put("protectTotalReplicas", total);
            annotations.remove(TOTAL);
        }
        JsonNode ignored = canonicalBetaFields(annotations.get(BETA_FIELDS_ANNOTATION));
        if (ignored != null) {
            specObject = specObject != null ? specObject : out.putObject("spec");
            specObject.set(IGNORED, ignored);
            annotations.remove(BETA_FIELDS_ANNOTATION);
        }
        if (annotations.isEmpty()) {
            metadata.remove("annotations");
        }
        return out;
    }

    /**
     * A v1beta1 PodUnavailableBudget as v1alpha1; the input is not modified.
     *
     * @throws IllegalArgumentException for a typed field v1alpha1 cannot hold (say a non-string operation)
     */
    public static ObjectNode toV1alpha1(JsonNode beta) {
        ObjectNode out = copyOf(beta, BETA);
        out.put("apiVersion", ALPHA);
        JsonNode specNode = out.get("spec");
        ObjectNode spec = specNode instanceof ObjectNode s ? s : null;
        JsonNode ops = spec == null ? null : spec.remove("protectOperations");
        JsonNode total = spec == null ? null : spec.remove("protectTotalReplicas");
        JsonNode ignored = spec == null ? null : spec.remove(IGNORED);
        ObjectNode metadata = out.get("metadata") instanceof ObjectNode m ? m : null;
        String opsText = operationsText(ops);
        String totalText = totalText(total);
        String ignoredText = betaFieldsText(ignored);
        if (opsText != null || totalText != null || ignoredText != null) {
            metadata = metadata != null ? metadata : out.putObject("metadata");
            ObjectNode annotations = metadata.get("annotations") instanceof ObjectNode a ? a
                    : metadata.putObject("annotations");
            if (opsText != null) {
                annotations.put(OPS, opsText);
            }
            if (totalText != null) {
                annotations.put(TOTAL, totalText);
            }
            if (ignoredText != null) {
                annotations.put(BETA_FIELDS_ANNOTATION, ignoredText);
            }
        }
        if (metadata != null && metadata.get("annotations") instanceof ObjectNode annotations) {
            // The unset field means "no such setting": an annotation it would have been read from goes; a
            // non-canonical one was never the field and is kept.
            if (opsText == null && canonicalOperations(annotations.get(OPS)) != null) {
                annotations.remove(OPS);
            }
            if (totalText == null && canonicalInt(annotations.get(TOTAL)) != null) {
                annotations.remove(TOTAL);
            }
            if (ignoredText == null && canonicalBetaFields(annotations.get(BETA_FIELDS_ANNOTATION)) != null) {
                annotations.remove(BETA_FIELDS_ANNOTATION);
            }
            if (annotations.isEmpty()) {
                metadata.remove("annotations");
            }
        }
        return out;
    }

    /** The operations an annotation lists when its text is their canonical spelling ("A,B", known names), else null. */
    static ArrayNode canonicalOperations(JsonNode annotation) {
        if (annotation == null || !annotation.isTextual() || annotation.asText().isEmpty()) {
            return null;
        }
        ArrayNode ops = JsonNodeFactory.instance.arrayNode();
        for (String part : annotation.asText().split(",", -1)) {
            if (PubOperation.fromValue(part).isEmpty()) {
                return null;
            }
            ops.add(part);
        }
        return ops;
    }

    private static String operationsText(JsonNode ops) {
        if (ops == null || ops.isNull()) {
            return null;
        }
        if (!ops.isArray()) {
            throw new IllegalArgumentException("spec.protectOperations: Invalid value: " + shown(ops)
                    + ": must be a list of strings");
        }
        List<String> values = new ArrayList<>();
        for (JsonNode op : ops) {
            if (!op.isTextual()) {
                throw new IllegalArgumentException("spec.protectOperations: Invalid value: " + shown(op)
                        + ": must be a string");
            }
            if (!op.asText().isEmpty()) {
                values.add(op.asText());
            }
        }
        return values.isEmpty() ? null : String.join(",", values);
    }

    /**
     * The {@code spec.ignoredPodSelector} a v1alpha1 object carries in {@link #BETA_FIELDS_ANNOTATION}, as v1beta1
     * serves it: empty when the annotation is absent or not in the form this conversion writes (then v1beta1 shows
     * no such field either).
     *
     * @throws IllegalArgumentException when the annotation holds an object that is not a label selector
     */
    public static java.util.Optional<io.fabric8.kubernetes.api.model.LabelSelector> ignoredPodSelector(String annotation) {
        JsonNode ignored = annotation == null ? null
                : canonicalBetaFields(JsonNodeFactory.instance.textNode(annotation));
        if (ignored == null) {
            return java.util.Optional.empty();
        }
        try {
            return java.util.Optional.of(JSON.treeToValue(ignored, io.fabric8.kubernetes.api.model.LabelSelector.class));
        } catch (java.io.IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("spec.ignoredPodSelector: Invalid value: not a label selector");
        }
    }

    /** The ignoredPodSelector an annotation holds when its text is exactly what {@link #betaFieldsText} writes. */
    static JsonNode canonicalBetaFields(JsonNode annotation) {
        if (annotation == null || !annotation.isTextual()) {
            return null;
        }
        try {
            JsonNode parsed = JSON.readTree(annotation.asText());
            if (parsed == null || !parsed.isObject() || parsed.size() != 1 || !(parsed.get(IGNORED) instanceof ObjectNode)
                    || !annotation.asText().equals(JSON.writeValueAsString(parsed))) {
                return null;
            }
            return parsed.get(IGNORED);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private static String betaFieldsText(JsonNode ignored) {
        if (ignored == null || ignored.isNull()) {
            return null;
        }
        if (!ignored.isObject()) {
            throw new IllegalArgumentException("spec.ignoredPodSelector: Invalid value: " + shown(ignored)
                    + ": must be a label selector object");
        }
        ObjectNode holder = JsonNodeFactory.instance.objectNode();
        holder.set(IGNORED, ignored);
        try {
            return JSON.writeValueAsString(holder);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("spec.ignoredPodSelector: cannot be written", e);
        }
    }

    private static String totalText(JsonNode total) {
        if (total == null || total.isNull()) {
            return null;
        }
        if (!total.isIntegralNumber() || !total.canConvertToInt()) {
            throw new IllegalArgumentException("spec.protectTotalReplicas: Invalid value: " + shown(total)
                    + ": must be a 32-bit integer");
        }
        return Integer.toString(total.intValue());
    }

    private static Integer canonicalInt(JsonNode annotation) {
        if (annotation == null || !annotation.isTextual()) {
            return null;
        }
        String text = annotation.asText();
        try {
            int n = Integer.parseInt(text);
            return Integer.toString(n).equals(text) ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String shown(JsonNode v) {
        String s = v.toString();
        return s.length() > 64 ? s.substring(0, 64) + "..." : s;
    }

    private static ObjectNode copyOf(JsonNode object, String expected) {
        if (object == null || !object.isObject()) {
            throw new IllegalArgumentException("a PodUnavailableBudget to convert must be a JSON object");
        }
        String apiVersion = object.path("apiVersion").asText("");
        if (!apiVersion.equals(expected)) {
            throw new IllegalArgumentException("expected a PodUnavailableBudget of " + expected + ", got apiVersion '"
                    + apiVersion + "'");
        }
        return ((ObjectNode) object).deepCopy();
    }
}
