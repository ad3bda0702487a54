package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code POST pods/<name>/binding} and {@code POST bindings}: a scheduler assigns a pod to a node, once; the pod
 * gets its nodeName and a PodScheduled condition.
 */
final class PodBinder {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final ApiServer api;

    PodBinder(ApiServer api) {
        this.api = api;
    }

    ObjectNode bind(String namespace, String podName, JsonNode binding) {
        ResourceType pods = api.registry().byKey("pods").orElseThrow();
        String target = binding.path("target").path("name").asText("");
        String name = podName != null ? podName : binding.path("metadata").path("name").asText("");
        if (target.isEmpty() || name.isEmpty()) {
            throw ApiException.badRequest("a Binding needs metadata.name and target.name");
        }
        ObjectNode pod = api.store().get(pods, namespace, name);
        if (pod == null) {
            throw ApiException.notFound(pods, name);
        }
        if (!pod.path("spec").path("nodeName").asText("").isEmpty()) {
            throw ApiException.conflict(pods, name, "pod " + name + " is already assigned to node \""
                    + pod.path("spec").path("nodeName").asText() + "\"");
        }
        if (pod.path("metadata").has("deletionTimestamp")) {
            throw ApiException.conflict(pods, name, "pod " + name + " is being deleted, cannot be assigned to a host");
        }
        ObjectNode next = pod.deepCopy();
        ((ObjectNode) next.get("spec")).put("nodeName", target);
        ObjectNode status = next.get("status") instanceof ObjectNode s ? s : next.putObject("status");
        setCondition(status, "PodScheduled", "True", null, null);
        api.commitUpdate(pods, pod, next);
        ObjectNode ok = JSON.objectNode();
        ok.put("kind", "Status").put("apiVersion", "v1").putObject("metadata");
        ok.put("status", "Success").put("code", 201);
        return ok;
    }

    private static void setCondition(ObjectNode status, String type, String value, String reason, String message) {
        ArrayNode conditions = status.get("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
        ObjectNode cond = null;
        for (JsonNode c : conditions) {
            if (type.equals(c.path("type").asText())) {
                cond = (ObjectNode) c;
            }
        }
        if (cond == null) {
            cond = conditions.addObject().put("type", type);
        }
        if (!value.equals(cond.path("status").asText())) {
            cond.put("lastTransitionTime", ApiServer.now());
        }
        cond.put("status", value);
        if (reason != null) {
            cond.put("reason", reason);
        } else {
            cond.remove("reason");
        }
        if (message != null) {
            cond.put("message", message);
        } else {
            cond.remove("message");
        }
        cond.putNull("lastProbeTime");
    }
}
