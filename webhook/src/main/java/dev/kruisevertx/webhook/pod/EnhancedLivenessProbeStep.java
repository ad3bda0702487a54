package dev.kruisevertx.webhook.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Step 7 of OpenKruise's pod pipeline (gate EnhancedLivenessProbe): on CREATE of a pod controlled by an
 * {@code apps.kruise.io} workload and annotated {@value #USING_ENHANCED_LIVENESS}{@code : "true"}, every container's
 * livenessProbe is removed (so the kubelet does not restart it) and kept in the annotation
 * {@value #PROBE_CONTEXT} as {@code [{"name":..., "livenessProbe":{...}}]}, with the keys in Go's field order so the
 * value is byte-identical to OpenKruise's.
 */
public final class EnhancedLivenessProbeStep implements PodMutationStep {
    public static final String USING_ENHANCED_LIVENESS = "apps.kruise.io/using-enhanced-liveness";
    public static final String PROBE_CONTEXT = "apps.kruise.io/container-probe-context";
    private static final List<String> PROBE_ORDER = List.of("exec", "httpGet", "tcpSocket", "grpc",
            "initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold",
            "terminationGracePeriodSeconds");
    private static final Map<String, List<String>> HANDLER_ORDER = Map.of(
            "httpGet", List.of("path", "port", "host", "scheme", "httpHeaders"),
            "tcpSocket", List.of("port", "host"),
            "grpc", List.of("port", "service"));

    @Override
    public void mutate(AdmissionRequest request, Pod pod) {
        if (!request.isCreate() || (request.subResource() != null && !request.subResource().isEmpty())
                || !ReadinessGateStep.ownedByKruise(pod) || pod.getMetadata() == null
                || pod.getMetadata().getAnnotations() == null
                || !"true".equals(pod.getMetadata().getAnnotations().get(USING_ENHANCED_LIVENESS))
                || pod.getSpec() == null || pod.getSpec().getContainers() == null) {
            return;
        }
        String context = removeAndBackUp(pod);
        if (context != null) {
            Map<String, String> annotations = new LinkedHashMap<>(pod.getMetadata().getAnnotations());
            annotations.put(PROBE_CONTEXT, context);
            pod.getMetadata().setAnnotations(annotations);
        }
    }

    /** Removes the containers' liveness probes; their JSON backup, or null when there were none. */
    static String removeAndBackUp(Pod pod) {
        ArrayNode backup = JsonNodeFactory.instance.arrayNode();
        for (Container c : pod.getSpec().getContainers()) {
            if (c.getLivenessProbe() == null) {
                continue;
            }
            ObjectNode entry = backup.addObject();
            entry.put("name", c.getName());
            entry.set("livenessProbe", ordered(ApiJson.serialization().convertValue(c.getLivenessProbe(), JsonNode.class),
                    PROBE_ORDER, true));
            c.setLivenessProbe(null);
        }
        return backup.isEmpty() ? null : backup.toString();
    }

    private static ObjectNode ordered(JsonNode node, List<String> order, boolean nested) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (String key : order) {
            JsonNode value = node.get(key);
            if (value != null && !value.isNull()) {
                List<String> inner = nested ? HANDLER_ORDER.get(key) : null;
                out.set(key, inner != null && value.isObject() ? ordered(value, inner, false) : value);
            }
        }
        // Fields this order does not know (a newer Kubernetes) are kept, after the known ones.
        node.fieldNames().forEachRemaining(k -> {
            if (!out.has(k) && !node.get(k).isNull()) {
                out.set(k, node.get(k));
            }
        });
        return out;
    }
}
