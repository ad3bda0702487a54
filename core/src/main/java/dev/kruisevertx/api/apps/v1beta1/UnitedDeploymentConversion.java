package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Converts UnitedDeployments between v1alpha1 (the hub, stored, as in OpenKruise v1.9.0) and v1beta1 (served), as
 * JSON trees so that fields this model does not know pass through untouched. As OpenKruise's master converts them:
 * <ul>
 *   <li>{@code status.updateStatus.updatedRevision} is v1beta1's {@code status.updatedRevision};</li>
 *   <li>{@code status.subsetReplicas[name]} and {@code status.updateStatus.currentPartitions[name]} are the
 *       {@code replicas} and {@code partition} of the {@code status.subsetStatuses} entry of that name (added when
 *       missing); back in v1alpha1 both maps are rebuilt from the named entries, and {@code updateStatus} exists when
 *       there is an updatedRevision or a subset status;</li>
 *   <li>a {@code spec.template.cloneSetTemplate} holds a v1alpha1 CloneSet spec in v1alpha1 and a v1beta1 one in
 *       v1beta1, converted as {@link CloneSetConversion} converts a CloneSet (its metadata carrying the CloneSet's
 *       labels and annotations).</li>
 * </ul>
 * Everything else is the same in both versions. Where a round trip would not give the object back (the controller's
 * observed subset replicas differing from the target ones, a subset status without a map entry, an unset CloneSet
 * template update type) the original status or cloneSetTemplate is kept aside in an annotation of the converted
 * object ({@link #ALPHA_STATUS_ANNOTATION} and the others below) and used on the way back while it still converts to
 * what the object holds, so round trips in either direction change nothing ({@link LosslessPart}).
 */
public final class UnitedDeploymentConversion {
    public static final String ALPHA = dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment.API_VERSION;
    public static final String BETA = UnitedDeployment.API_VERSION;
    /** On a v1beta1 object: the v1alpha1 status it was converted from, when v1beta1 cannot spell it. */
    public static final String ALPHA_STATUS_ANNOTATION = "apps.kruise.io/v1alpha1-status";
    /** On a v1alpha1 object: the v1beta1 status it was converted from, when v1alpha1 cannot spell it. */
    public static final String BETA_STATUS_ANNOTATION = "apps.kruise.io/v1beta1-status";
    /** On a v1beta1 object: the v1alpha1 cloneSetTemplate it was converted from, when v1beta1 cannot spell it. */
    public static final String ALPHA_CLONESET_TEMPLATE_ANNOTATION = "apps.kruise.io/v1alpha1-cloneset-template";
    /** On a v1alpha1 object: the v1beta1 cloneSetTemplate it was converted from, when v1alpha1 cannot spell it. */
    public static final String BETA_CLONESET_TEMPLATE_ANNOTATION = "apps.kruise.io/v1beta1-cloneset-template";

    private static final LosslessPart STATUS = new LosslessPart(List.of("status"),
            ALPHA_STATUS_ANNOTATION, BETA_STATUS_ANNOTATION);
    private static final LosslessPart CLONESET_TEMPLATE = new LosslessPart(
            List.of("spec", "template", "cloneSetTemplate"),
            ALPHA_CLONESET_TEMPLATE_ANNOTATION, BETA_CLONESET_TEMPLATE_ANNOTATION);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private UnitedDeploymentConversion() {
    }

    /** A v1alpha1 UnitedDeployment as v1beta1; the input is not modified. */
    public static ObjectNode toV1beta1(JsonNode alpha) {
        ObjectNode out = copyOf(alpha, ALPHA);
        out.put("apiVersion", BETA);
        CLONESET_TEMPLATE.convert(out, UnitedDeploymentConversion::cloneSetTemplateToBeta,
                UnitedDeploymentConversion::cloneSetTemplateToAlpha);
        STATUS.convert(out, UnitedDeploymentConversion::statusToBeta, UnitedDeploymentConversion::statusToAlpha);
        return out;
    }

    /**
     * A v1beta1 UnitedDeployment as v1alpha1; the input is not modified.
     *
     * @throws IllegalArgumentException when the cloneSetTemplate holds a value v1alpha1 cannot (the message names
     *                                  the field)
     */
    public static ObjectNode toV1alpha1(JsonNode beta) {
        ObjectNode out = copyOf(beta, BETA);
        out.put("apiVersion", ALPHA);
        CLONESET_TEMPLATE.reversed().convert(out, UnitedDeploymentConversion::cloneSetTemplateToAlpha,
                UnitedDeploymentConversion::cloneSetTemplateToBeta);
        STATUS.reversed().convert(out, UnitedDeploymentConversion::statusToAlpha,
                UnitedDeploymentConversion::statusToBeta);
        return out;
    }

    /** Typed form of {@link #toV1beta1(JsonNode)}. */
    public static UnitedDeployment toV1beta1(dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment alpha) {
        JsonNode tree = ApiJson.serialization().convertValue(alpha, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1beta1(tree), UnitedDeployment.class);
    }

    /** Typed form of {@link #toV1alpha1(JsonNode)}. */
    public static dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment toV1alpha1(UnitedDeployment beta) {
        JsonNode tree = ApiJson.serialization().convertValue(beta, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1alpha1(tree),
                dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment.class);
    }

    // --- status ---

    static JsonNode statusToBeta(JsonNode given) {
        if (!(given instanceof ObjectNode status)) {
            return given; // not an object: the same (wrong) value in either version
        }
        JsonNode subsetReplicas = status.remove("subsetReplicas");
        JsonNode updateStatus = status.remove("updateStatus");
        JsonNode updated = updateStatus == null ? null : updateStatus.get("updatedRevision");
        if (updated != null && updated.isTextual() && !updated.asText().isEmpty()) {
            status.set("updatedRevision", updated);
        }
        mergeIntoSubsetStatuses(status, subsetReplicas, "replicas");
        mergeIntoSubsetStatuses(status, updateStatus == null ? null : updateStatus.get("currentPartitions"),
                "partition");
        return status;
    }

    static JsonNode statusToAlpha(JsonNode given) {
        if (!(given instanceof ObjectNode status)) {
            return given;
        }
        JsonNode updatedNode = status.remove("updatedRevision");
        String updated = updatedNode != null && updatedNode.isTextual() ? updatedNode.asText() : "";
        JsonNode statuses = status.get("subsetStatuses");
        boolean anyStatus = statuses instanceof ArrayNode a && !a.isEmpty();
        ObjectNode replicas = F.objectNode();
        ObjectNode partitions = F.objectNode();
        if (statuses instanceof ArrayNode list) {
            for (JsonNode entry : list) {
                String name = entry.path("name").asText("");
                if (!entry.path("name").isTextual() || name.isEmpty()) {
                    continue;
                }
                replicas.set(name, F.numberNode(entry.path("replicas").asInt(0)));
                partitions.set(name, F.numberNode(entry.path("partition").asInt(0)));
            }
        }
        if (!replicas.isEmpty()) {
            status.set("subsetReplicas", replicas);
        }
        if (!updated.isEmpty() || anyStatus) {
            ObjectNode updateStatus = status.putObject("updateStatus");
            if (!updated.isEmpty()) {
                updateStatus.put("updatedRevision", updated);
            }
            if (!partitions.isEmpty()) {
                updateStatus.set("currentPartitions", partitions);
            }
        }
        return status;
    }

    /** Writes each {@code name: value} of {@code map} into the subset status of that name, appending missing ones. */
    private static void mergeIntoSubsetStatuses(ObjectNode status, JsonNode map, String field) {
        if (!(map instanceof ObjectNode values) || values.isEmpty()) {
            return;
        }
        JsonNode given = status.get("subsetStatuses");
        if (given != null && !given.isNull() && !given.isArray()) {
            return; // not a list: left as it is (kept aside when it matters)
        }
        ArrayNode list = given instanceof ArrayNode a ? a : status.putArray("subsetStatuses");
        Iterator<Map.Entry<String, JsonNode>> it = values.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            ObjectNode entry = null;
            for (JsonNode s : list) {
                if (s instanceof ObjectNode o && e.getKey().equals(o.path("name").asText(null))) {
                    entry = o;
                    break;
                }
            }
            if (entry == null) {
                entry = list.addObject();
                entry.put("name", e.getKey());
            }
            int value = e.getValue().asInt(0);
            if (value == 0) {
                entry.remove(field); // omitted when zero, as OpenKruise writes it
            } else {
                entry.put(field, value);
            }
        }
    }

    // --- cloneSetTemplate ---

    static JsonNode cloneSetTemplateToBeta(JsonNode template) {
        return cloneSetTemplate(template, dev.kruisevertx.api.apps.v1alpha1.CloneSet.API_VERSION, true);
    }

    static JsonNode cloneSetTemplateToAlpha(JsonNode template) {
        try {
            return cloneSetTemplate(template, CloneSet.API_VERSION, false);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("spec.template.cloneSetTemplate." + e.getMessage(), e);
        }
    }

    /** The template's metadata and spec converted as the CloneSet they make. */
    private static JsonNode cloneSetTemplate(JsonNode given, String from, boolean toBeta) {
        if (!(given instanceof ObjectNode template)) {
            return given;
        }
        JsonNode metadata = template.get("metadata");
        JsonNode spec = template.get("spec");
        if ((metadata != null && !metadata.isNull() && !metadata.isObject())
                || (spec != null && !spec.isNull() && !spec.isObject())) {
            return template; // not objects: left for validation to name
        }
        ObjectNode cloneSet = F.objectNode();
        cloneSet.put("apiVersion", from);
        if (metadata instanceof ObjectNode m) {
            cloneSet.set("metadata", m);
        }
        if (spec instanceof ObjectNode s) {
            cloneSet.set("spec", s);
        }
        ObjectNode converted = toBeta ? CloneSetConversion.toV1beta1(cloneSet) : CloneSetConversion.toV1alpha1(cloneSet);
        setOrRemove(template, "metadata", converted.get("metadata"), metadata);
        setOrRemove(template, "spec", converted.get("spec"), spec);
        return template;
    }

    private static void setOrRemove(ObjectNode template, String field, JsonNode converted, JsonNode before) {
        if (converted != null) {
            template.set(field, converted);
        } else if (before == null || !before.isNull()) {
            template.remove(field);
        }
    }

    private static ObjectNode copyOf(JsonNode object, String expected) {
        if (object == null || !object.isObject()) {
            throw new IllegalArgumentException("a UnitedDeployment to convert must be a JSON object");
        }
        String apiVersion = object.path("apiVersion").asText("");
        if (!apiVersion.equals(expected)) {
            throw new IllegalArgumentException("expected a UnitedDeployment of " + expected + ", got apiVersion '"
                    + apiVersion + "'");
        }
        return ((ObjectNode) object).deepCopy();
    }
}
