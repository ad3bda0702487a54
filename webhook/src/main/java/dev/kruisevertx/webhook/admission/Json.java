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
    /** Reads objects people write (custom resources) with the API server's JSON types: see {@link StrictModelMapper}. */
    private static final KubernetesSerialization STRICT = StrictModelMapper.create();

    private Json() {
    }

    /** A pod touching the commonly used parts of the model, to build Jackson's (de)serializers ahead of time. */
    private static final String SAMPLE_POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"warm\","
            + "\"labels\":{\"a\":\"b\"},\"annotations\":{\"a\":\"b\"},\"ownerReferences\":[{\"apiVersion\":\"v1\","
            + "\"kind\":\"X\",\"name\":\"x\",\"uid\":\"u\",\"controller\":true}]},\"spec\":{\"containers\":[{"
            + "\"name\":\"c\",\"image\":\"i\",\"ports\":[{\"containerPort\":80}],\"env\":[{\"name\":\"E\","
            + "\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.name\"}}}],\"resources\":{\"requests\":"
            + "{\"cpu\":\"1\"}},\"readinessProbe\":{\"httpGet\":{\"port\":80}},\"volumeMounts\":[{\"name\":\"v\","
            + "\"mountPath\":\"/v\"}]}],\"volumes\":[{\"name\":\"v\",\"emptyDir\":{}}],\"readinessGates\":"
            + "[{\"conditionType\":\"X\"}],\"affinity\":{\"nodeAffinity\":{}},\"tolerations\":[{\"key\":\"k\"}]}}";

    /**
     * Builds the Jackson (de)serializers of the pod and CloneSet models. The first conversion of these large
     * models costs seconds of class loading and introspection; doing it here, on a worker thread at startup,
     * keeps it off the event loop.
     */
    public static void warmUp() {
        try {
            JsonNode pod = MAPPER.readTree(SAMPLE_POD);
            toTree(toModel(pod, io.fabric8.kubernetes.api.model.Pod.class));
            ObjectNode cloneSet = MAPPER.createObjectNode();
            cloneSet.put("apiVersion", "apps.kruise.io/v1alpha1").put("kind", "CloneSet");
            cloneSet.putObject("spec").putObject("template").set("spec", pod.get("spec"));
            toTree(toModel(cloneSet, dev.kruisevertx.api.apps.v1alpha1.CloneSet.class));
            decode(cloneSet, dev.kruisevertx.api.apps.v1alpha1.CloneSet.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot warm up JSON serialization", e);
        }
    }

    public static <T> T toModel(JsonNode node, Class<T> type) {
        return KUBE.convertValue(node, type);
    }

    /**
     * A request object as {@code type}, refusing values of the wrong JSON type (a quoted number, a fraction for an
     * integer, a number for a string) as the API server's schema check does. {@link #toModel} stays lenient for
     * objects the API server already typed (pods) and for stored objects read back (an UPDATE's old object).
     *
     * @throws IllegalArgumentException when a field does not fit; {@link DecodeProblems} says which and why
     */
    public static <T> T decode(JsonNode node, Class<T> type) {
        StrictModelMapper.rejectNullElements(node);
        return STRICT.convertValue(node, type);
    }

    /** Any value (object, list, scalar) as a JSON tree; null stays null. */
    public static JsonNode toNode(Object value) {
        return value == null ? null : KUBE.convertValue(value, JsonNode.class);
    }

    public static ObjectNode toTree(Object model) {
        return KUBE.convertValue(model, ObjectNode.class);
    }
}
