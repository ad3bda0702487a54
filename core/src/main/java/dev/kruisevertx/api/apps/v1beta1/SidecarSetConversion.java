package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;

/**
 * Converts SidecarSets between v1alpha1 (served) and v1beta1 (the hub, stored), as JSON trees so that fields this
 * model does not know pass through untouched. The two versions differ in two places, converted as OpenKruise v1.9
 * does:
 * <ul>
 *   <li>v1alpha1 {@code spec.namespace} becomes a v1beta1 {@code namespaceSelector} matching the namespace's
 *       {@code kubernetes.io/metadata.name} label (a non-empty namespace wins over a namespaceSelector set next to
 *       it, as it did in v1alpha1's matching); on the way back the selector stays a selector, so a v1alpha1 client
 *       reads {@code namespaceSelector}, which selects the same pods;</li>
 *   <li>the v1alpha1 label {@link SidecarSet#CUSTOM_VERSION_LABEL} becomes {@code spec.customVersion} (and leaves
 *       the labels), and back.</li>
 * </ul>
 */
public final class SidecarSetConversion {
    /** The label every namespace carries with its own name (Kubernetes 1.21+). */
    public static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

    private SidecarSetConversion() {
    }

    /** A v1alpha1 SidecarSet as v1beta1; the input is not modified. */
    public static ObjectNode toV1beta1(JsonNode alpha) {
        ObjectNode out = copyOf(alpha, "v1alpha1");
        out.put("apiVersion", SidecarSet.API_VERSION);
        ObjectNode spec = spec(out);
        JsonNode namespace = spec == null ? null : spec.remove("namespace");
        if (namespace != null && namespace.isTextual() && !namespace.asText().isEmpty()) {
            ObjectNode selector = spec.putObject("namespaceSelector");
            selector.putObject("matchLabels").put(NAMESPACE_NAME_LABEL, namespace.asText());
        }
        ObjectNode labels = labels(out);
        JsonNode version = labels == null ? null : labels.remove(SidecarSet.CUSTOM_VERSION_LABEL);
        if (version != null) {
            if (labels.isEmpty()) {
                ((ObjectNode) out.get("metadata")).remove("labels");
            }
            if (!version.asText("").isEmpty()) {
                (spec == null ? out.putObject("spec") : spec).put("customVersion", version.asText());
            }
        }
        return out;
    }

    /** A v1beta1 SidecarSet as v1alpha1; the input is not modified. */
    public static ObjectNode toV1alpha1(JsonNode beta) {
        ObjectNode out = copyOf(beta, "v1beta1");
        out.put("apiVersion", dev.kruisevertx.api.apps.v1alpha1.SidecarSet.API_VERSION);
        ObjectNode spec = spec(out);
        JsonNode version = spec == null ? null : spec.remove("customVersion");
        if (version != null && version.isTextual() && !version.asText().isEmpty()) {
            ObjectNode metadata = out.get("metadata") instanceof ObjectNode m ? m : out.putObject("metadata");
            ObjectNode labels = metadata.get("labels") instanceof ObjectNode l ? l : metadata.putObject("labels");
            labels.put(SidecarSet.CUSTOM_VERSION_LABEL, version.asText());
        }
        return out;
    }

    /** Typed form of {@link #toV1beta1(JsonNode)}. */
    public static SidecarSet toV1beta1(dev.kruisevertx.api.apps.v1alpha1.SidecarSet alpha) {
        JsonNode tree = ApiJson.serialization().convertValue(alpha, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1beta1(tree), SidecarSet.class);
    }

    /** Typed form of {@link #toV1alpha1(JsonNode)}. */
    public static dev.kruisevertx.api.apps.v1alpha1.SidecarSet toV1alpha1(SidecarSet beta) {
        JsonNode tree = ApiJson.serialization().convertValue(beta, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1alpha1(tree), dev.kruisevertx.api.apps.v1alpha1.SidecarSet.class);
    }

    private static ObjectNode copyOf(JsonNode object, String expectedVersion) {
        if (object == null || !object.isObject()) {
            throw new IllegalArgumentException("a SidecarSet to convert must be a JSON object");
        }
        String apiVersion = object.path("apiVersion").asText("");
        String expected = SidecarSet.GROUP + "/" + expectedVersion;
        if (!apiVersion.equals(expected)) {
            throw new IllegalArgumentException("expected a SidecarSet of " + expected + ", got apiVersion '"
                    + apiVersion + "'");
        }
        return ((ObjectNode) object).deepCopy();
    }

    private static ObjectNode spec(ObjectNode object) {
        return object.get("spec") instanceof ObjectNode s ? s : null;
    }

    private static ObjectNode labels(ObjectNode object) {
        return object.path("metadata").get("labels") instanceof ObjectNode l ? l : null;
    }
}
