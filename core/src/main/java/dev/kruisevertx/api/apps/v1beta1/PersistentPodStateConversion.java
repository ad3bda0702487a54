package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;

import java.util.Iterator;
import java.util.Map;

/**
 * Converts PersistentPodStates between v1alpha1 (the hub, stored, as in OpenKruise v1.9.0) and v1beta1 (served), as
 * JSON trees so that fields this model does not know pass through untouched. The versions differ only in the key list
 * of a topology term: v1alpha1's {@code nodeTopologyKeys} is v1beta1's {@code keys}, in
 * {@code spec.requiredPersistentTopology} and in every {@code spec.preferredPersistentTopology[].preference}; the
 * status is the same. Every v1alpha1 field has its v1beta1 place and the other way round, so round trips change
 * nothing. Unlike OpenKruise's master (whose typed conversion drops fields it does not know and writes an empty
 * key list as null), unknown fields and empty lists pass through; a term holding the other version's spelling as
 * well (say {@code keys} in a v1alpha1 term) is refused, since it would take that field's place.
 */
public final class PersistentPodStateConversion {
    public static final String ALPHA = dev.kruisevertx.api.apps.v1alpha1.PersistentPodState.API_VERSION;
    public static final String BETA = PersistentPodState.API_VERSION;
    static final String ALPHA_KEYS = "nodeTopologyKeys";
    static final String BETA_KEYS = "keys";

    private PersistentPodStateConversion() {
    }

    /**
     * A v1alpha1 PersistentPodState as v1beta1; the input is not modified.
     *
     * @throws IllegalArgumentException when a topology term holds a {@code keys} field too
     */
    public static ObjectNode toV1beta1(JsonNode alpha) {
        ObjectNode out = copyOf(alpha, ALPHA);
        out.put("apiVersion", BETA);
        renameTerms(out, ALPHA_KEYS, BETA_KEYS);
        return out;
    }

    /**
     * A v1beta1 PersistentPodState as v1alpha1; the input is not modified.
     *
     * @throws IllegalArgumentException when a topology term holds a {@code nodeTopologyKeys} field too
     */
    public static ObjectNode toV1alpha1(JsonNode beta) {
        ObjectNode out = copyOf(beta, BETA);
        out.put("apiVersion", ALPHA);
        renameTerms(out, BETA_KEYS, ALPHA_KEYS);
        return out;
    }

    /** Typed form of {@link #toV1beta1(JsonNode)}. */
    public static PersistentPodState toV1beta1(dev.kruisevertx.api.apps.v1alpha1.PersistentPodState alpha) {
        JsonNode tree = ApiJson.serialization().convertValue(alpha, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1beta1(tree), PersistentPodState.class);
    }

    /** Typed form of {@link #toV1alpha1(JsonNode)}. */
    public static dev.kruisevertx.api.apps.v1alpha1.PersistentPodState toV1alpha1(PersistentPodState beta) {
        JsonNode tree = ApiJson.serialization().convertValue(beta, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1alpha1(tree),
                dev.kruisevertx.api.apps.v1alpha1.PersistentPodState.class);
    }

    /** A v1alpha1 field path in its v1beta1 spelling (for messages about a v1beta1 object judged as v1alpha1). */
    public static String betaPath(String alphaPath) {
        if (alphaPath == null) {
            return null;
        }
        return alphaPath.replaceFirst("^(spec\\.(requiredPersistentTopology|preferredPersistentTopology\\[\\d+\\]"
                + "\\.preference)\\.)" + ALPHA_KEYS + "(?=$|[.\\[])", "$1" + BETA_KEYS);
    }

    private static void renameTerms(ObjectNode root, String from, String to) {
        if (!(root.get("spec") instanceof ObjectNode spec)) {
            return;
        }
        JsonNode required = spec.get("requiredPersistentTopology");
        if (required instanceof ObjectNode term) {
            spec.set("requiredPersistentTopology", renamed(term, from, to, "spec.requiredPersistentTopology"));
        }
        if (spec.get("preferredPersistentTopology") instanceof ArrayNode preferred) {
            for (int i = 0; i < preferred.size(); i++) {
                if (preferred.get(i) instanceof ObjectNode item && item.get("preference") instanceof ObjectNode term) {
                    item.set("preference", renamed(term, from, to,
                            "spec.preferredPersistentTopology[" + i + "].preference"));
                }
            }
        }
    }

    /** The term with {@code from} renamed {@code to}, keys kept in their order. */
    private static ObjectNode renamed(ObjectNode term, String from, String to, String path) {
        if (term.has(to)) {
            throw new IllegalArgumentException(path + "." + to + ": field not declared in schema: this version "
                    + "spells it " + from);
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        Iterator<Map.Entry<String, JsonNode>> fields = term.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            out.set(e.getKey().equals(from) ? to : e.getKey(), e.getValue());
        }
        return out;
    }

    private static ObjectNode copyOf(JsonNode object, String expected) {
        if (object == null || !object.isObject()) {
            throw new IllegalArgumentException("a PersistentPodState to convert must be a JSON object");
        }
        String apiVersion = object.path("apiVersion").asText("");
        if (!apiVersion.equals(expected)) {
            throw new IllegalArgumentException("expected a PersistentPodState of " + expected + ", got apiVersion '"
                    + apiVersion + "'");
        }
        return ((ObjectNode) object).deepCopy();
    }
}
