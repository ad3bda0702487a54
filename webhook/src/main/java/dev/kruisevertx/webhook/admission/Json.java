package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * JSON plumbing shared by the webhook: one Jackson mapper for trees and fabric8's serialization for model
 * objects, so the same rules (omitted nulls, quantities, int-or-string) apply in both directions.
 */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper();
    public static final KubernetesSerialization KUBE = new KubernetesSerialization();

    private Json() {
    }

    public static <T> T toModel(JsonNode node, Class<T> type) {
        return KUBE.convertValue(node, type);
    }

    /** Any value (object, list, scalar) as a JSON tree; null stays null. */
    public static JsonNode toNode(Object value) {
        return value == null ? null : KUBE.convertValue(value, JsonNode.class);
    }

    public static ObjectNode toTree(Object model) {
        return KUBE.convertValue(model, ObjectNode.class);
    }
}
