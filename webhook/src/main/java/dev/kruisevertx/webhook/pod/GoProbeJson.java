package dev.kruisevertx.webhook.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.Probe;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Kubernetes probe as Go's encoding/json writes a {@code corev1.Probe}: fields in the Go struct's order and the
 * {@code omitempty} ones left out when zero, so an annotation OpenKruise builds from a probe is byte-identical here.
 * A stored custom resource keeps an explicit {@code 0} that Go would drop; that is why zeros are handled.
 */
final class GoProbeJson {
    private static final List<String> PROBE_ORDER = List.of("exec", "httpGet", "tcpSocket", "grpc",
            "initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold",
            "terminationGracePeriodSeconds");
    /** Probe fields that Go omits when zero ({@code terminationGracePeriodSeconds} is a pointer: 0 stays). */
    private static final Set<String> PROBE_OMIT_ZERO = Set.of("initialDelaySeconds", "timeoutSeconds",
            "periodSeconds", "successThreshold", "failureThreshold");
    private static final Map<String, List<String>> HANDLER_ORDER = Map.of(
            "exec", List.of("command"),
            "httpGet", List.of("path", "port", "host", "scheme", "httpHeaders"),
            "tcpSocket", List.of("port", "host"),
            "grpc", List.of("port", "service"));
    /** Handler fields that Go omits when empty. */
    private static final Set<String> HANDLER_OMIT_EMPTY = Set.of("command", "path", "host", "scheme", "httpHeaders");

    private GoProbeJson() {
    }

    /** The probe in Go's form; an absent probe is Go's zero value, {@code {}}. */
    static ObjectNode of(Probe probe) {
        if (probe == null) {
            return JsonNodeFactory.instance.objectNode();
        }
        JsonNode node = ApiJson.serialization().convertValue(probe, JsonNode.class);
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (String key : PROBE_ORDER) {
            JsonNode value = node.get(key);
            if (value == null || value.isNull() || (PROBE_OMIT_ZERO.contains(key) && value.isNumber() && value.asLong() == 0)) {
                continue;
            }
            List<String> inner = HANDLER_ORDER.get(key);
            out.set(key, inner != null && value.isObject() ? handler(value, inner) : value);
        }
        keepUnknown(node, out, PROBE_ORDER);
        return out;
    }

    private static ObjectNode handler(JsonNode node, List<String> order) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (String key : order) {
            JsonNode value = node.get(key);
            if (value == null || value.isNull() || (HANDLER_OMIT_EMPTY.contains(key)
                    && (value.isTextual() && value.asText().isEmpty() || value.isArray() && value.isEmpty()))) {
                continue;
            }
            out.set(key, value);
        }
        keepUnknown(node, out, order);
        return out;
    }

    /** Fields this order does not know (a newer Kubernetes) are kept, after the known ones. */
    private static void keepUnknown(JsonNode node, ObjectNode out, List<String> known) {
        node.fieldNames().forEachRemaining(k -> {
            if (!known.contains(k) && !node.get(k).isNull()) {
                out.set(k, node.get(k));
            }
        });
    }
}
