package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Converts CloneSets between v1alpha1 (the hub, stored, as in OpenKruise v1.9.0) and v1beta1 (served), as JSON trees
 * so that fields this model does not know pass through untouched. The versions differ in:
 * <ul>
 *   <li>{@code updateStrategy}: v1alpha1's {@code type} ReCreate / InPlaceIfPossible / InPlaceOnly is v1beta1's
 *       {@code type: RollingUpdate} with {@code rollingUpdate.podUpdatePolicy}; OnDelete is OnDelete; the flat
 *       v1alpha1 knobs (partition, maxUnavailable, maxSurge, paused, priorityStrategy, scatterStrategy,
 *       inPlaceUpdateStrategy) live under {@code rollingUpdate};</li>
 *   <li>{@code scaleStrategy.disablePVCReuse} is the inverse of {@code enablePVCReuse} (both false when unset, so an
 *       absent v1alpha1 scaleStrategy is {@code enablePVCReuse: true});</li>
 *   <li>the v1alpha1 label {@link WellKnown#CLONESET_SCALING_EXCLUDE_PREPARING_DELETE_LABEL} {@code "true"} is
 *       {@code scaleStrategy.excludePreparingDelete: true};</li>
 *   <li>the v1alpha1 annotations {@code apps.kruise.io/image-predownload-{parallelism,timeout-seconds,
 *       min-updated-ready-pods}} are {@code rollingUpdate.inPlaceUpdateStrategy.imagePreDownload*}.</li>
 * </ul>
 * Unlike OpenKruise's master (which keeps the label and annotations on both sides, drops the update knobs of an
 * OnDelete CloneSet and never writes excludePreparingDelete back), every value lives in exactly one place, so round
 * trips in either direction change nothing. Where one version cannot spell a value the other holds it is kept aside:
 * an annotation whose text is not the canonical form of the field (say {@code "007"} or {@code "abc"} for a number)
 * stays an annotation, and a v1beta1 {@code rollingUpdate} key v1alpha1 has no flat field for (an unknown field, or
 * the podUpdatePolicy of an OnDelete CloneSet) is kept in a v1alpha1 {@code updateStrategy.rollingUpdate} object,
 * which v1alpha1 preserves as an unknown field.
 *
 * <p>Equivalent spellings meet in one form (as OpenKruise's Go types write them): an unset type (or a v1beta1
 * RollingUpdate without podUpdatePolicy) reads back as ReCreate, as OpenKruise converts it, an absent v1alpha1 scaleStrategy reads back as {@code {}} (what the
 * v1alpha1 defaults write), an inPlaceUpdateStrategy that only gained image fields is dropped again unless the type is
 * in-place (whose defaults write an empty one), and a false boolean reads as unset.
 */
public final class CloneSetConversion {
    /** v1alpha1 update knobs that v1beta1 keeps under {@code rollingUpdate}, in OpenKruise's field order. */
    static final List<String> ROLLING_FIELDS = List.of("partition", "maxUnavailable", "maxSurge", "paused",
            "priorityStrategy", "scatterStrategy", "inPlaceUpdateStrategy");
    static final String ON_DELETE = CloneSetUpdateStrategyType.ON_DELETE.value();
    static final String ROLLING_UPDATE = CloneSetUpdateStrategyType.ROLLING_UPDATE.value();
    static final String RECREATE = PodUpdateStrategyType.RECREATE.value();
    private static final java.util.Set<String> IN_PLACE = java.util.Set.of(
            PodUpdateStrategyType.IN_PLACE_IF_POSSIBLE.value(), PodUpdateStrategyType.IN_PLACE_ONLY.value());

    /** v1alpha1 annotation -> v1beta1 inPlaceUpdateStrategy field. */
    private static final Map<String, String> IMAGE_FIELDS = Map.of(
            WellKnown.IMAGE_PREDOWNLOAD_PARALLELISM_ANNOTATION, "imagePreDownloadParallelism",
            WellKnown.IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS_ANNOTATION, "imagePreDownloadTimeoutSeconds",
            WellKnown.IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS_ANNOTATION, "imagePreDownloadMinUpdatedReadyPods");
    private static final List<String> IMAGE_ANNOTATIONS = List.of(WellKnown.IMAGE_PREDOWNLOAD_PARALLELISM_ANNOTATION,
            WellKnown.IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS_ANNOTATION,
            WellKnown.IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS_ANNOTATION);
    private static final String EXCLUDE_LABEL = WellKnown.CLONESET_SCALING_EXCLUDE_PREPARING_DELETE_LABEL;

    private CloneSetConversion() {
    }

    /** A v1alpha1 CloneSet as v1beta1; the input is not modified. */
    public static ObjectNode toV1beta1(JsonNode alpha) {
        ObjectNode out = copyOf(alpha, dev.kruisevertx.api.apps.v1alpha1.CloneSet.API_VERSION);
        out.put("apiVersion", CloneSet.API_VERSION);
        ObjectNode spec = out.get("spec") instanceof ObjectNode s ? s : null;
        ObjectNode metadata = out.get("metadata") instanceof ObjectNode m ? m : null;
        boolean exclude = metadata != null && removeIfTrue(metadata, "labels", EXCLUDE_LABEL);
        if (spec == null) {
            spec = out.putObject("spec");
        }
        scaleToBeta(spec, exclude);
        updateToBeta(spec, metadata);
        return out;
    }

    /** A v1beta1 CloneSet as v1alpha1; the input is not modified. */
    public static ObjectNode toV1alpha1(JsonNode beta) {
        ObjectNode out = copyOf(beta, CloneSet.API_VERSION);
        out.put("apiVersion", dev.kruisevertx.api.apps.v1alpha1.CloneSet.API_VERSION);
        ObjectNode spec = out.get("spec") instanceof ObjectNode s ? s : out.putObject("spec");
        boolean exclude = scaleToAlpha(spec);
        ObjectNode metadata = out.get("metadata") instanceof ObjectNode m ? m : null;
        if (exclude) {
            if (metadata == null) {
                metadata = out.putObject("metadata");
            }
            child(metadata, "labels").put(EXCLUDE_LABEL, "true");
        } else if (metadata != null) {
            // The field holds the setting in v1beta1: a stale label must not turn it on in v1alpha1.
            removeIfTrue(metadata, "labels", EXCLUDE_LABEL);
        }
        updateToAlpha(spec, out);
        return out;
    }

    /** Typed form of {@link #toV1beta1(JsonNode)}. */
    public static CloneSet toV1beta1(dev.kruisevertx.api.apps.v1alpha1.CloneSet alpha) {
        JsonNode tree = ApiJson.serialization().convertValue(alpha, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1beta1(tree), CloneSet.class);
    }

    /** Typed form of {@link #toV1alpha1(JsonNode)}. */
    public static dev.kruisevertx.api.apps.v1alpha1.CloneSet toV1alpha1(CloneSet beta) {
        JsonNode tree = ApiJson.serialization().convertValue(beta, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1alpha1(tree), dev.kruisevertx.api.apps.v1alpha1.CloneSet.class);
    }

    private static void scaleToBeta(ObjectNode spec, boolean exclude) {
        JsonNode given = spec.get("scaleStrategy");
        ObjectNode scale = given instanceof ObjectNode o ? o : null;
        boolean disable = false;
        if (scale != null) {
            JsonNode d = scale.remove("disablePVCReuse");
            disable = d != null && d.asBoolean(false);
        } else if (given != null && !given.isNull()) {
            return; // not an object: left for validation to name
        }
        if (!disable || exclude) {
            if (scale == null) {
                scale = spec.putObject("scaleStrategy");
            }
            if (!disable) {
                scale.put("enablePVCReuse", true);
            }
            if (exclude) {
                scale.put("excludePreparingDelete", true);
            }
        }
        if (scale != null && scale.isEmpty()) {
            spec.remove("scaleStrategy");
        }
    }

    /** Moves the v1beta1 scale fields to their v1alpha1 form; returns whether excludePreparingDelete was set. */
    private static boolean scaleToAlpha(ObjectNode spec) {
        JsonNode given = spec.get("scaleStrategy");
        if (given != null && !given.isNull() && !given.isObject()) {
            return false;
        }
        ObjectNode scale = given instanceof ObjectNode o ? o : null;
        boolean enable = false;
        boolean exclude = false;
        if (scale != null) {
            JsonNode e = scale.remove("enablePVCReuse");
            enable = e != null && e.asBoolean(false);
            JsonNode x = scale.remove("excludePreparingDelete");
            exclude = x != null && x.asBoolean(false);
        }
        if (!enable) {
            if (scale == null) {
                scale = spec.putObject("scaleStrategy");
            }
            scale.put("disablePVCReuse", true);
        }
        // An emptied scaleStrategy stays: the v1alpha1 defaults write {}, so a stored object reads back unchanged.
        return exclude;
    }

    private static void updateToBeta(ObjectNode spec, ObjectNode metadata) {
        JsonNode given = spec.get("updateStrategy");
        if (given != null && !given.isNull() && !given.isObject()) {
            return;
        }
        ObjectNode update = given instanceof ObjectNode o ? o : spec.putObject("updateStrategy");
        JsonNode typeNode = update.get("type");
        if (typeNode != null && !typeNode.isNull() && !typeNode.isTextual()) {
            return; // a non-string type: left for validation to name (the v1beta1 form cannot hold it)
        }
        // An unset type is ReCreate, as the defaults and OpenKruise's conversion read it.
        String type = typeNode == null || typeNode.isNull() ? RECREATE : typeNode.asText();
        ObjectNode rolling = null;
        if (update.get("rollingUpdate") instanceof ObjectNode kept) {
            rolling = kept; // v1beta1 keys v1alpha1 had no field for
            update.remove("rollingUpdate");
        }
        ObjectNode moved = json().objectNode();
        for (String field : ROLLING_FIELDS) {
            JsonNode v = update.remove(field);
            if (v != null) {
                moved.set(field, v);
            }
        }
        if (ON_DELETE.equals(type)) {
            update.put("type", ON_DELETE);
        } else {
            update.put("type", ROLLING_UPDATE);
            moved.put("podUpdatePolicy", type);
        }
        imageAnnotationsToFields(metadata, moved);
        if (rolling != null) {
            rolling.setAll(moved); // the flat v1alpha1 fields win over same-named keys kept aside
            moved = rolling;
        }
        if (!moved.isEmpty()) {
            update.set("rollingUpdate", order(moved));
        }
    }

    private static void updateToAlpha(ObjectNode spec, ObjectNode root) {
        JsonNode given = spec.get("updateStrategy");
        if (given != null && !given.isNull() && !given.isObject()) {
            return;
        }
        ObjectNode update = given instanceof ObjectNode o ? o : json().objectNode();
        JsonNode typeNode = update.get("type");
        String type = textOrNull(typeNode);
        if (typeNode != null && !typeNode.isNull() && type == null) {
            throw new IllegalArgumentException("spec.updateStrategy.type: Invalid value: " + typeNode
                    + ": must be a string");
        }
        if (type != null && !ROLLING_UPDATE.equals(type) && !ON_DELETE.equals(type)) {
            throw new IllegalArgumentException("spec.updateStrategy.type: Unsupported value: \"" + type
                    + "\": supported values: \"" + ROLLING_UPDATE + "\", \"" + ON_DELETE + "\"");
        }
        JsonNode rollingNode = update.remove("rollingUpdate");
        if (rollingNode != null && !rollingNode.isNull() && !rollingNode.isObject()) {
            throw new IllegalArgumentException("spec.updateStrategy.rollingUpdate: Invalid value: "
                    + rollingNode.getNodeType().name().toLowerCase() + ": must be an object");
        }
        ObjectNode rolling = rollingNode instanceof ObjectNode r ? r : json().objectNode();
        // Rebuilt so the v1alpha1 object lists the fields in OpenKruise's order: type first.
        ObjectNode rebuilt = json().objectNode();
        JsonNode policyNode = rolling.get("podUpdatePolicy");
        String policy = textOrNull(policyNode);
        if (ON_DELETE.equals(type)) {
            rebuilt.put("type", ON_DELETE); // a podUpdatePolicy stays aside in rollingUpdate
        } else {
            if (policyNode != null && !policyNode.isNull() && policy == null) {
                throw new IllegalArgumentException("spec.updateStrategy.rollingUpdate.podUpdatePolicy: Invalid value: "
                        + shown(policyNode) + ": must be a string");
            }
            rolling.remove("podUpdatePolicy");
            rebuilt.put("type", policy == null ? RECREATE : policy);
        }
        ObjectNode metadata = root.get("metadata") instanceof ObjectNode m ? m : null;
        JsonNode inPlace = rolling.get("inPlaceUpdateStrategy");
        if (inPlace instanceof ObjectNode ip) {
            // An inPlaceUpdateStrategy that held only image fields was made up by toV1beta1, except for the in-place
            // types, whose v1alpha1 defaults write an empty one.
            if (imageFieldsToAnnotations(ip, metadata, root) && ip.isEmpty()
                    && !IN_PLACE.contains(rebuilt.path("type").asText(""))) {
                rolling.remove("inPlaceUpdateStrategy");
            }
        }
        for (String field : ROLLING_FIELDS) {
            JsonNode v = rolling.remove(field);
            if (v != null) {
                rebuilt.set(field, v);
            }
        }
        Iterator<Map.Entry<String, JsonNode>> rest = update.fields();
        while (rest.hasNext()) {
            Map.Entry<String, JsonNode> e = rest.next();
            if (!e.getKey().equals("type")) {
                rebuilt.set(e.getKey(), e.getValue());
            }
        }
        if (!rolling.isEmpty()) {
            rebuilt.set("rollingUpdate", rolling);
        }
        spec.set("updateStrategy", rebuilt);
    }

    /** Moves canonical image pre-download annotations into {@code rolling.inPlaceUpdateStrategy}. */
    private static void imageAnnotationsToFields(ObjectNode metadata, ObjectNode rolling) {
        if (metadata == null || !(metadata.get("annotations") instanceof ObjectNode annotations)) {
            return;
        }
        ObjectNode inPlace = null;
        for (String key : IMAGE_ANNOTATIONS) {
            JsonNode value = canonicalField(key, annotations.get(key));
            if (value == null) {
                continue;
            }
            if (inPlace == null) {
                inPlace = rolling.get("inPlaceUpdateStrategy") instanceof ObjectNode ip ? ip : null;
                if (inPlace == null) {
                    if (rolling.has("inPlaceUpdateStrategy") && !rolling.get("inPlaceUpdateStrategy").isNull()) {
                        return; // not an object: left for validation to name
                    }
                    inPlace = rolling.putObject("inPlaceUpdateStrategy");
                }
            }
            inPlace.set(IMAGE_FIELDS.get(key), value);
            annotations.remove(key);
        }
        if (annotations.isEmpty()) {
            metadata.remove("annotations");
        }
    }

    /**
     * Moves image pre-download fields to v1alpha1 annotations; returns whether any was there.
     *
     * @throws IllegalArgumentException for a value v1alpha1 cannot hold
     */
    private static boolean imageFieldsToAnnotations(ObjectNode inPlace, ObjectNode metadata, ObjectNode root) {
        boolean any = false;
        for (String key : IMAGE_ANNOTATIONS) {
            String field = IMAGE_FIELDS.get(key);
            JsonNode v = inPlace.remove(field);
            if (v == null || v.isNull()) {
                continue;
            }
            String text = annotationText(field, v);
            any = true;
            ObjectNode meta = metadata != null ? metadata : root.putObject("metadata");
            metadata = meta;
            child(meta, "annotations").put(key, text);
        }
        return any;
    }

    private static String annotationText(String field, JsonNode v) {
        String path = "spec.updateStrategy.rollingUpdate.inPlaceUpdateStrategy." + field;
        if (field.equals("imagePreDownloadParallelism") && v.isTextual()) {
            return v.asText();
        }
        if (v.isIntegralNumber() && v.canConvertToInt()) {
            return Integer.toString(v.intValue());
        }
        throw new IllegalArgumentException(path + ": Invalid value: " + shown(v) + ": must be a 32-bit integer"
                + (field.equals("imagePreDownloadParallelism") ? " or a string" : ""));
    }

    /** The field value an annotation stands for, or null when its text is not that value's canonical spelling. */
    private static JsonNode canonicalField(String key, JsonNode annotation) {
        if (annotation == null || !annotation.isTextual() || annotation.asText().isEmpty()) {
            return null;
        }
        String text = annotation.asText();
        Integer number = canonicalInt(text);
        if (number != null) {
            return IntNode.valueOf(number);
        }
        if (key.equals(WellKnown.IMAGE_PREDOWNLOAD_PARALLELISM_ANNOTATION) && !looksNumeric(text)) {
            return TextNode.valueOf(text); // "50%" and the like: an int-or-string string
        }
        return null;
    }

    private static Integer canonicalInt(String text) {
        try {
            int n = Integer.parseInt(text);
            return Integer.toString(n).equals(text) ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Text that int-or-string parsing would read as a number (so a string field could not carry it back). */
    private static boolean looksNumeric(String text) {
        return text.matches("[+-]?[0-9]+");
    }

    private static boolean removeIfTrue(ObjectNode metadata, String mapName, String key) {
        if (!(metadata.get(mapName) instanceof ObjectNode map) || !"true".equals(textOrNull(map.get(key)))) {
            return false;
        }
        map.remove(key);
        if (map.isEmpty()) {
            metadata.remove(mapName);
        }
        return true;
    }

    /** The v1beta1 rollingUpdate keys in OpenKruise's order, unknown keys after them. */
    private static ObjectNode order(ObjectNode rolling) {
        ObjectNode out = json().objectNode();
        List<String> known = new ArrayList<>(ROLLING_FIELDS);
        known.add(3, "podUpdatePolicy");
        for (String field : known) {
            if (rolling.has(field)) {
                out.set(field, rolling.get(field));
            }
        }
        rolling.fields().forEachRemaining(e -> {
            if (!out.has(e.getKey())) {
                out.set(e.getKey(), e.getValue());
            }
        });
        return out;
    }

    private static ObjectNode child(ObjectNode parent, String name) {
        return parent.get(name) instanceof ObjectNode o ? o : parent.putObject(name);
    }

    private static String textOrNull(JsonNode node) {
        return node != null && node.isTextual() ? node.asText() : null;
    }

    private static String shown(JsonNode v) {
        String s = v.toString();
        return s.length() > 64 ? s.substring(0, 64) + "..." : s;
    }

    private static com.fasterxml.jackson.databind.node.JsonNodeFactory json() {
        return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
    }

    private static ObjectNode copyOf(JsonNode object, String expected) {
        if (object == null || !object.isObject()) {
            throw new IllegalArgumentException("a CloneSet to convert must be a JSON object");
        }
        String apiVersion = object.path("apiVersion").asText("");
        if (!apiVersion.equals(expected)) {
            throw new IllegalArgumentException("expected a CloneSet of " + expected + ", got apiVersion '" + apiVersion
                    + "'");
        }
        return ((ObjectNode) object).deepCopy();
    }
}
