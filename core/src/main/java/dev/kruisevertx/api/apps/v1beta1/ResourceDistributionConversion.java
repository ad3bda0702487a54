package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;

import java.util.List;

/**
 * Converts ResourceDistributions between v1alpha1 (the hub, stored, as in OpenKruise v1.9.0) and v1beta1 (served), as
 * JSON trees so that fields this model does not know pass through untouched. As OpenKruise's master converts them,
 * the versions differ in two spellings: v1alpha1's {@code spec.targets.namespaceLabelSelector} is v1beta1's
 * {@code spec.targets.namespaceSelector}, and a status condition's {@code failedNamespace} is
 * {@code failedNamespaces}. Unlike OpenKruise (whose Go types drop an empty failed-namespace list and an empty
 * target list), the values move as they are. Where a rename would collide with a field of the other spelling already
 * there (an unknown field in that version), the original targets or status is kept aside in an annotation of the
 * converted object ({@link #ALPHA_TARGETS_ANNOTATION} and the others below) and used on the way back while it still
 * converts to what the object holds, so round trips in either direction change nothing ({@link LosslessPart}).
 */
public final class ResourceDistributionConversion {
    public static final String ALPHA = dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution.API_VERSION;
    public static final String BETA = ResourceDistribution.API_VERSION;
    /** On a v1beta1 object: the v1alpha1 spec.targets it was converted from, when v1beta1 cannot spell it. */
    public static final String ALPHA_TARGETS_ANNOTATION = "apps.kruise.io/v1alpha1-targets";
    /** On a v1alpha1 object: the v1beta1 spec.targets it was converted from, when v1alpha1 cannot spell it. */
    public static final String BETA_TARGETS_ANNOTATION = "apps.kruise.io/v1beta1-targets";
    /** On a v1beta1 object: the v1alpha1 status it was converted from, when v1beta1 cannot spell it. */
    public static final String ALPHA_STATUS_ANNOTATION = "apps.kruise.io/v1alpha1-status";
    /** On a v1alpha1 object: the v1beta1 status it was converted from, when v1alpha1 cannot spell it. */
    public static final String BETA_STATUS_ANNOTATION = "apps.kruise.io/v1beta1-status";

    private static final LosslessPart TARGETS = new LosslessPart(List.of("spec", "targets"),
            ALPHA_TARGETS_ANNOTATION, BETA_TARGETS_ANNOTATION);
    private static final LosslessPart STATUS = new LosslessPart(List.of("status"),
            ALPHA_STATUS_ANNOTATION, BETA_STATUS_ANNOTATION);
    private static final String ALPHA_SELECTOR = "namespaceLabelSelector";
    private static final String BETA_SELECTOR = "namespaceSelector";
    private static final String ALPHA_FAILED = "failedNamespace";
    private static final String BETA_FAILED = "failedNamespaces";

    private ResourceDistributionConversion() {
    }

    /** A v1alpha1 ResourceDistribution as v1beta1; the input is not modified. */
    public static ObjectNode toV1beta1(JsonNode alpha) {
        ObjectNode out = copyOf(alpha, ALPHA);
        out.put("apiVersion", BETA);
        TARGETS.convert(out, t -> rename(t, ALPHA_SELECTOR, BETA_SELECTOR), t -> rename(t, BETA_SELECTOR, ALPHA_SELECTOR));
        STATUS.convert(out, s -> renameInConditions(s, ALPHA_FAILED, BETA_FAILED),
                s -> renameInConditions(s, BETA_FAILED, ALPHA_FAILED));
        return out;
    }

    /** A v1beta1 ResourceDistribution as v1alpha1; the input is not modified. */
    public static ObjectNode toV1alpha1(JsonNode beta) {
        ObjectNode out = copyOf(beta, BETA);
        out.put("apiVersion", ALPHA);
        TARGETS.reversed().convert(out, t -> rename(t, BETA_SELECTOR, ALPHA_SELECTOR),
                t -> rename(t, ALPHA_SELECTOR, BETA_SELECTOR));
        STATUS.reversed().convert(out, s -> renameInConditions(s, BETA_FAILED, ALPHA_FAILED),
                s -> renameInConditions(s, ALPHA_FAILED, BETA_FAILED));
        return out;
    }

    /** Typed form of {@link #toV1beta1(JsonNode)}. */
    public static ResourceDistribution toV1beta1(dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution alpha) {
        JsonNode tree = ApiJson.serialization().convertValue(alpha, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1beta1(tree), ResourceDistribution.class);
    }

    /** Typed form of {@link #toV1alpha1(JsonNode)}. */
    public static dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution toV1alpha1(ResourceDistribution beta) {
        JsonNode tree = ApiJson.serialization().convertValue(beta, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1alpha1(tree),
                dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution.class);
    }

    /** The object with field {@code from} renamed {@code to}, in place (a field already named {@code to} is replaced). */
    private static JsonNode rename(JsonNode given, String from, String to) {
        if (given instanceof ObjectNode o && o.has(from)) {
            o.set(to, o.remove(from));
        }
        return given;
    }

    private static JsonNode renameInConditions(JsonNode status, String from, String to) {
        if (status instanceof ObjectNode s && s.get("conditions") instanceof ArrayNode conditions) {
            conditions.forEach(c -> rename(c, from, to));
        }
        return status;
    }

    private static ObjectNode copyOf(JsonNode object, String expected) {
        if (object == null || !object.isObject()) {
            throw new IllegalArgumentException("a ResourceDistribution to convert must be a JSON object");
        }
        String apiVersion = object.path("apiVersion").asText("");
        if (!apiVersion.equals(expected)) {
            throw new IllegalArgumentException("expected a ResourceDistribution of " + expected
                    + ", got apiVersion '" + apiVersion + "'");
        }
        return ((ObjectNode) object).deepCopy();
    }
}
