package dev.kruisevertx.sim.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A small HTTP API over {@link SimNodes} for changing nodes of a running {@code demo} or {@code sim-nodes}, under
 * {@code /sim/nodes}:
 * <pre>
 * GET    /sim/nodes                      the nodes and their health
 * POST   /sim/nodes                      {"name": "n", "labels": {...}}  add a node
 * DELETE /sim/nodes/NAME                 remove a node (its pods are deleted)
 * PUT    /sim/nodes/NAME/health          {"health": "Ready" | "NotReady" | "Unreachable"}
 * PUT    /sim/nodes/NAME/labels          {"key": "value", "gone": null}  (PATCH too)
 * PUT    /sim/nodes/NAME/taints          [{"key": "k", "value": "v", "effect": "NoExecute"}]
 * </pre>
 * Answers are JSON; bad input gets 400 with a message, an unknown node 404. {@link #handle} blocks (API calls): call
 * it on a worker.
 */
public final class NodeControl {
    public static final String PREFIX = "/sim/nodes";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** An answer: the status code and a JSON body. */
    public record Reply(int code, JsonNode body) {
    }

    private final SimNodes nodes;

    public NodeControl(SimNodes nodes) {
        this.nodes = nodes;
    }

    public Reply handle(String method, String path, String body) {
        try {
            return route(method.toUpperCase(Locale.ROOT), path, body);
        } catch (IllegalArgumentException e) {
            return error(e.getMessage().startsWith("no simulated node") ? 404 : 400, e.getMessage());
        } catch (KubernetesClientException e) {
            int code = e.getCode() == 0 ? 502 : e.getCode();
            return error(code, "the API server refused: " + SimNodes.reason(e));
        }
    }

    private Reply route(String method, String path, String body) {
        if (!path.startsWith(PREFIX)) {
            return error(404, "not found: " + path);
        }
        String[] parts = path.substring(PREFIX.length()).replaceAll("^/+|/+$", "").split("/");
        if (parts.length == 1 && parts[0].isEmpty()) {
            if (method.equals("GET")) {
                return new Reply(200, list());
            }
            if (method.equals("POST")) {
                JsonNode req = json(body);
                String name = req.path("name").asText("");
                Map<String, String> labels = labels(req.path("labels"));
                nodes.addNode(name, labels);
                return ok(201, "node " + name + " added");
            }
            return error(405, method + " is not supported on " + PREFIX);
        }
        String name = parts[0];
        if (parts.length == 1) {
            if (method.equals("DELETE")) {
                nodes.removeNode(name);
                return ok(200, "node " + name + " removed");
            }
            if (method.equals("GET")) {
                return new Reply(200, node(name));
            }
            return error(405, method + " is not supported on a node");
        }
        if (parts.length != 2 || !(method.equals("PUT") || method.equals("PATCH") || method.equals("POST"))) {
            return error(parts.length == 2 ? 405 : 404, "use PUT on " + PREFIX + "/NAME/{health,labels,taints}");
        }
        switch (parts[1]) {
            case "health" -> {
                String wanted = json(body).path("health").asText("");
                NodeHealth h = switch (wanted) {
                    case "Ready" -> NodeHealth.READY;
                    case "NotReady" -> NodeHealth.NOT_READY;
                    case "Unreachable" -> NodeHealth.UNREACHABLE;
                    default -> throw new IllegalArgumentException("health must be Ready, NotReady or Unreachable, got \"" + wanted + "\"");
                };
                nodes.setNodeHealth(name, h);
                return new Reply(200, node(name));
            }
            case "labels" -> {
                nodes.setNodeLabels(requireKnown(name), labels(json(body)));
                return ok(200, "labels of " + name + " set");
            }
            case "taints" -> {
                JsonNode list = json(body);
                if (!list.isArray()) {
                    throw new IllegalArgumentException("taints must be a JSON list of {key, value, effect}");
                }
                List<Taint> taints = new ArrayList<>();
                for (JsonNode t : list) {
                    String effect = t.path("effect").asText("");
                    if (!List.of("NoSchedule", "PreferNoSchedule", "NoExecute").contains(effect)) {
                        throw new IllegalArgumentException("taint effect must be NoSchedule, PreferNoSchedule or NoExecute, got \"" + effect + "\"");
                    }
                    if (t.path("key").asText("").isEmpty()) {
                        throw new IllegalArgumentException("a taint needs a key");
                    }
                    taints.add(new Taint(effect, t.path("key").asText(), null, t.path("value").isTextual() ? t.path("value").asText() : null));
                }
                nodes.setNodeTaints(requireKnown(name), taints);
                return ok(200, "taints of " + name + " set");
            }
            default -> {
                return error(404, "unknown node setting \"" + parts[1] + "\": use health, labels or taints");
            }
        }
    }

    private String requireKnown(String name) {
        if (!nodes.nodeNames().contains(name)) {
            throw new IllegalArgumentException("no simulated node " + name);
        }
        return name;
    }

    private ObjectNode list() {
        ObjectNode out = MAPPER.createObjectNode();
        ArrayNode arr = out.putArray("nodes");
        for (String n : nodes.nodeNames()) {
            arr.add(node(n));
        }
        return out;
    }

    private ObjectNode node(String name) {
        NodeHealth h = nodes.nodeHealth(name);
        ObjectNode o = MAPPER.createObjectNode();
        o.put("name", name).put("health", switch (h) {
            case READY -> "Ready";
            case NOT_READY -> "NotReady";
            case UNREACHABLE -> "Unreachable";
        });
        return o;
    }

    private static Map<String, String> labels(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("labels must be a JSON object of strings (null removes a label)");
        }
        Map<String, String> out = new HashMap<>();
        node.fields().forEachRemaining(e -> {
            if (!e.getValue().isNull() && !e.getValue().isTextual()) {
                throw new IllegalArgumentException("label " + e.getKey() + " must be a string or null");
            }
            out.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText());
        });
        return out;
    }

    private static JsonNode json(String body) {
        if (body == null || body.isBlank()) {
            throw new IllegalArgumentException("a JSON body is required");
        }
        try {
            return MAPPER.readTree(body);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("the body is not valid JSON");
        }
    }

    private static Reply ok(int code, String message) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("status", "Success").put("message", message);
        return new Reply(code, o);
    }

    private static Reply error(int code, String message) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("status", "Failure").put("message", message).put("code", code);
        return new Reply(code, o);
    }
}
