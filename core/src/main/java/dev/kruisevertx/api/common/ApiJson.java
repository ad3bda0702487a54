package dev.kruisevertx.api.common;

import dev.kruisevertx.api.crd.KruiseCrds;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The one JSON/YAML (de)serializer of the API model, for the JSON documents OpenKruise keeps in annotations.
 * fabric8's serialization knows the Kubernetes model types (IntOrString, Quantity, ObjectMeta) used inside them,
 * and every Kruise kind is registered, so a document with only apiVersion/kind reads into the right class.
 */
public final class ApiJson {
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    static {
        KruiseCrds.registerKinds(SERIALIZATION);
    }

    private ApiJson() {
    }

    public static KubernetesSerialization serialization() {
        return SERIALIZATION;
    }

    /** Compact JSON, as OpenKruise writes annotation values. */
    public static String toJson(Object value) {
        return SERIALIZATION.asJson(value);
    }

    /**
     * Reads a JSON document kept in an annotation.
     *
     * @throws IllegalArgumentException naming the annotation when the text is not valid JSON for {@code type}
     */
    public static <T> T fromAnnotation(String annotationKey, String json, Class<T> type) {
        try {
            return SERIALIZATION.unmarshal(json, type);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("annotation " + annotationKey + " does not hold a valid "
                    + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }
}
