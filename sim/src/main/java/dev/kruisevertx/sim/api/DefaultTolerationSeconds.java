package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube-apiserver's DefaultTolerationSeconds admission plugin: a pod created without a toleration for the node
 * lifecycle's NoExecute taints {@code node.kubernetes.io/not-ready} and {@code node.kubernetes.io/unreachable} gets
 * one ({@code Exists}, 300 s), so its pods leave a failed node five minutes after the taint appears.
 */
final class DefaultTolerationSeconds {
    // An int, as a decoded request body carries it, so later updates compare equal.
    static final int SECONDS = 300;
    private static final String NOT_READY = "node.kubernetes.io/not-ready";
    private static final String UNREACHABLE = "node.kubernetes.io/unreachable";

    private DefaultTolerationSeconds() {
    }

    static void apply(ResourceType type, ObjectNode pod) {
        if (type.custom() || !type.group().isEmpty() || !type.kind().equals("Pod") || !(pod.get("spec") instanceof ObjectNode spec)) {
            return;
        }
        boolean notReady = false;
        boolean unreachable = false;
        for (JsonNode t : spec.path("tolerations")) {
            notReady |= tolerates(t, NOT_READY);
            unreachable |= tolerates(t, UNREACHABLE);
        }
        if (notReady && unreachable) {
            return;
        }
        ArrayNode list = spec.get("tolerations") instanceof ArrayNode a ? a : spec.putArray("tolerations");
        if (!notReady) {
            add(list, NOT_READY);
        }
        if (!unreachable) {
            add(list, UNREACHABLE);
        }
    }

    /** As the plugin checks: a toleration of this key (or of every key) for NoExecute (or every effect). */
    private static boolean tolerates(JsonNode t, String key) {
        String effect = t.path("effect").asText("");
        String k = t.path("key").asText("");
        boolean keyMatches = k.equals(key) || (k.isEmpty() && "Exists".equals(t.path("operator").asText("")));
        return keyMatches && (effect.isEmpty() || effect.equals("NoExecute"));
    }

    private static void add(ArrayNode list, String key) {
        list.addObject().put("key", key).put("operator", "Exists").put("effect", "NoExecute").put("tolerationSeconds", SECONDS);
    }
}
