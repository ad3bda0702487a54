package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;

/**
 * Converts Advanced DaemonSets between v1alpha1 (served) and v1beta1 (the hub, stored), as JSON trees so that fields
 * this model does not know pass through untouched. The versions differ in three places:
 * <ul>
 *   <li>progressive create: the v1alpha1 annotation {@link #PROGRESSIVE_CREATE_POD_ANNOTATION} {@code "true"} is
 *       v1beta1's {@code spec.scaleStrategy.partitionedScaling: true};</li>
 *   <li>the deprecated v1alpha1 {@code rollingUpdateType: Surging} becomes {@code Standard} (its surge settings are
 *       in maxSurge/maxUnavailable, which the defaulting webhook fills in);</li>
 *   <li>v1alpha1's {@code status.daemonSetHash} is v1beta1's {@code status.updateRevision}.</li>
 * </ul>
 * Unlike OpenKruise, the annotation lives in exactly one place: converted to v1beta1 it is removed (the field holds
 * it), and a v1beta1 object without partitionedScaling converts to a v1alpha1 object without a {@code "true"}
 * annotation (OpenKruise keeps the annotation on both sides, so a stale {@code "true"} turns partitionedScaling back
 * on when a v1alpha1 client writes the object). Round trips in either direction change nothing.
 */
public final class DaemonSetConversion {
    /** v1alpha1's spelling of progressive create. */
    public static final String PROGRESSIVE_CREATE_POD_ANNOTATION = "daemonset.kruise.io/progressive-create-pod";
    /** The v1alpha1-only rolling update type, an alias of Standard. */
    public static final String DEPRECATED_SURGING = "Surging";

    private DaemonSetConversion() {
    }

    /** A v1alpha1 DaemonSet as v1beta1; the input is not modified. */
    public static ObjectNode toV1beta1(JsonNode alpha) {
        ObjectNode out = copyOf(alpha, "v1alpha1");
        out.put("apiVersion", DaemonSet.API_VERSION);
        ObjectNode spec = out.get("spec") instanceof ObjectNode s ? s : null;
        if (spec != null) {
            spec.remove("scaleStrategy");
            JsonNode ru = spec.path("updateStrategy").get("rollingUpdate");
            if (ru instanceof ObjectNode rolling && DEPRECATED_SURGING.equals(rolling.path("rollingUpdateType").asText(null))) {
                rolling.put("rollingUpdateType", RollingUpdateType.STANDARD.value());
            }
        }
        if (out.path("metadata").path("annotations") instanceof ObjectNode a
                && "true".equals(a.path(PROGRESSIVE_CREATE_POD_ANNOTATION).asText(null))) {
            // Held by the field from now on, so a v1beta1 -> v1alpha1 -> v1beta1 round trip changes nothing.
            a.remove(PROGRESSIVE_CREATE_POD_ANNOTATION);
            if (a.isEmpty()) {
                ((ObjectNode) out.get("metadata")).remove("annotations");
            }
            if (spec == null) {
                spec = out.putObject("spec");
            }
            spec.putObject("scaleStrategy").put("partitionedScaling", true);
        }
        rename(out.get("status"), "daemonSetHash", "updateRevision");
        return out;
    }

    /** A v1beta1 DaemonSet as v1alpha1; the input is not modified. */
    public static ObjectNode toV1alpha1(JsonNode beta) {
        ObjectNode out = copyOf(beta, "v1beta1");
        out.put("apiVersion", dev.kruisevertx.api.apps.v1alpha1.DaemonSet.API_VERSION);
        boolean partitioned = false;
        if (out.get("spec") instanceof ObjectNode spec) {
            JsonNode scale = spec.remove("scaleStrategy");
            partitioned = scale != null && scale.path("partitionedScaling").asBoolean(false);
        }
        JsonNode annotations = out.path("metadata").get("annotations");
        if (partitioned) {
            ObjectNode metadata = out.get("metadata") instanceof ObjectNode m ? m : out.putObject("metadata");
            ObjectNode a = annotations instanceof ObjectNode o ? o : metadata.putObject("annotations");
            a.put(PROGRESSIVE_CREATE_POD_ANNOTATION, "true");
        } else if (annotations instanceof ObjectNode a
                && "true".equals(a.path(PROGRESSIVE_CREATE_POD_ANNOTATION).asText(null))) {
            a.remove(PROGRESSIVE_CREATE_POD_ANNOTATION);
            if (a.isEmpty()) {
                ((ObjectNode) out.get("metadata")).remove("annotations");
            }
        }
        rename(out.get("status"), "updateRevision", "daemonSetHash");
        return out;
    }

    /** Typed form of {@link #toV1beta1(JsonNode)}. */
    public static DaemonSet toV1beta1(dev.kruisevertx.api.apps.v1alpha1.DaemonSet alpha) {
        JsonNode tree = ApiJson.serialization().convertValue(alpha, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1beta1(tree), DaemonSet.class);
    }

    /** Typed form of {@link #toV1alpha1(JsonNode)}. */
    public static dev.kruisevertx.api.apps.v1alpha1.DaemonSet toV1alpha1(DaemonSet beta) {
        JsonNode tree = ApiJson.serialization().convertValue(beta, JsonNode.class);
        return ApiJson.serialization().convertValue(toV1alpha1(tree), dev.kruisevertx.api.apps.v1alpha1.DaemonSet.class);
    }

    private static void rename(JsonNode object, String from, String to) {
        if (object instanceof ObjectNode o) {
            JsonNode v = o.remove(from);
            o.remove(to);
            if (v != null) {
                o.set(to, v);
            }
        }
    }

    private static ObjectNode copyOf(JsonNode object, String expectedVersion) {
        if (object == null || !object.isObject()) {
            throw new IllegalArgumentException("a DaemonSet to convert must be a JSON object");
        }
        String apiVersion = object.path("apiVersion").asText("");
        String expected = DaemonSet.GROUP + "/" + expectedVersion;
        if (!apiVersion.equals(expected)) {
            throw new IllegalArgumentException("expected a DaemonSet of " + expected + ", got apiVersion '" + apiVersion + "'");
        }
        return ((ObjectNode) object).deepCopy();
    }
}
