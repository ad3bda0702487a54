package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Converts Advanced StatefulSets between v1alpha1 (served) and v1beta1 (the hub, stored), as JSON trees so that
 * fields this model does not know pass through untouched.
 *
 * <p>Both versions share metadata, status and every v1alpha1 spec field under the same names. The spec fields only
 * v1beta1 has ({@link #BETA_ONLY_SPEC_FIELDS}) cannot live in a v1alpha1 object (the API server would prune them
 * against the v1alpha1 schema), so on the way down they are moved into the annotation {@link #BETA_FIELDS_ANNOTATION}
 * and on the way up moved back. A v1alpha1 client that reads, edits and writes an object therefore never drops
 * v1beta1 settings such as reserveOrdinals: every field of both versions survives a round trip.
 */
public final class StatefulSetConversion {
    /** Annotation on a v1alpha1 object holding, as a JSON object, the spec fields only v1beta1 has. */
    public static final String BETA_FIELDS_ANNOTATION = "apps.kruise.io/v1beta1-spec-fields";
    /** Spec fields of v1beta1 that v1alpha1 does not have (spec §2.3). */
    public static final List<String> BETA_ONLY_SPEC_FIELDS = List.of("reserveOrdinals", "lifecycle", "scaleStrategy",
            "persistentVolumeClaimRetentionPolicy", "ordinals", "volumeClaimUpdateStrategy");

    private static final ObjectMapper JSON = new ObjectMapper();

    private StatefulSetConversion() {
    }

    /** A v1alpha1 StatefulSet as v1beta1; the input is not modified. */
    public static ObjectNode toV1beta1(JsonNode alpha) {
        ObjectNode out = copyOf(alpha, "v1alpha1");
        out.put("apiVersion", StatefulSet.API_VERSION);
        ObjectNode annotations = annotations(out);
        if (annotations == null || !annotations.has(BETA_FIELDS_ANNOTATION)) {
            return out;
        }
        String stash = annotations.get(BETA_FIELDS_ANNOTATION).asText("");
        annotations.remove(BETA_FIELDS_ANNOTATION);
        if (annotations.isEmpty()) {
            ((ObjectNode) out.get("metadata")).remove("annotations");
        }
        JsonNode fields;
        try {
            fields = JSON.readTree(stash);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("annotation " + BETA_FIELDS_ANNOTATION + " must be a JSON object of "
                    + "v1beta1 spec fields: " + e.getOriginalMessage());
        }
        if (fields == null || !fields.isObject()) {
            throw new IllegalArgumentException("annotation " + BETA_FIELDS_ANNOTATION
                    + " must be a JSON object of v1beta1 spec fields");
        }
        ObjectNode spec = out.has("spec") && out.get("spec").isObject() ? (ObjectNode) out.get("spec")
                : out.putObject("spec");
        for (Iterator<Map.Entry<String, JsonNode>> it = fields.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!BETA_ONLY_SPEC_FIELDS.contains(f.getKey())) {
                throw new IllegalArgumentException("annotation " + BETA_FIELDS_ANNOTATION + " names '" + f.getKey()
                        + "', which is not a v1beta1-only spec field " + BETA_ONLY_SPEC_FIELDS);
            }
            // A value the v1alpha1 client set directly would have been pruned; the stash is the only source.
            spec.set(f.getKey(), f.getValue());
        }
        return out;
    }

    /** A v1beta1 StatefulSet as v1alpha1; the input is not modified. */
    public static ObjectNode toV1alpha1(JsonNode beta) {
        ObjectNode out = copyOf(beta, "v1beta1");
        out.put("apiVersion", dev.kruisevertx.api.apps.v1alpha1.StatefulSet.API_VERSION);
        JsonNode specNode = out.get("spec");
        ObjectNode stash = JSON.createObjectNode();
        if (specNode instanceof ObjectNode spec) {
            for (String field : BETA_ONLY_SPEC_FIELDS) {
                JsonNode value = spec.remove(field);
                if (value != null) {
                    stash.set(field, value);
                }
            }
        }
        ObjectNode annotations = annotations(out);
        if (stash.isEmpty()) {
            if (annotations != null) {
                annotations.remove(BETA_FIELDS_ANNOTATION);
            }
            return out;
        }
        if (annotations == null) {
            ObjectNode metadata = out.has("metadata") && out.get("metadata").isObject() ? (ObjectNode) out.get("metadata")
                    : out.putObject("metadata");
            annotations = metadata.putObject("annotations");
        }
        annotations.put(BETA_FIELDS_ANNOTATION, stash.toString());
        return out;
    }

    /** Typed form of {@link #toV1beta1(JsonNode)}. */
    public static StatefulSet toV1beta1(dev.kruisevertx.api.apps.v1alpha1.StatefulSet alpha) {
        JsonNode tree = ApiJson.serialization().convertValue(alpha, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1beta1(tree), StatefulSet.class);
    }

    /** Typed form of {@link #toV1alpha1(JsonNode)}. */
    public static dev.kruisevertx.api.apps.v1alpha1.StatefulSet toV1alpha1(StatefulSet beta) {
        JsonNode tree = ApiJson.serialization().convertValue(beta, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1alpha1(tree),
                dev.kruisevertx.api.apps.v1alpha1.StatefulSet.class);
    }

    private static ObjectNode copyOf(JsonNode object, String expectedVersion) {
        if (object == null || !object.isObject()) {
            throw new IllegalArgumentException("a StatefulSet to convert must be a JSON object");
        }
        String apiVersion = object.path("apiVersion").asText("");
        String expected = StatefulSet.GROUP + "/" + expectedVersion;
        if (!apiVersion.equals(expected)) {
            throw new IllegalArgumentException("expected a StatefulSet of " + expected + ", got apiVersion '"
                    + apiVersion + "'");
        }
        return ((ObjectNode) object).deepCopy();
    }

    private static ObjectNode annotations(ObjectNode object) {
        JsonNode a = object.path("metadata").get("annotations");
        return a instanceof ObjectNode o ? o : null;
    }
}
