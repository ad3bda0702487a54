package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Behaviour of built-in kinds that controllers notice: Secret {@code stringData} folded into {@code data},
 * Service cluster IPs allocated and kept, and the fields of a Pod spec that may change after creation
 * (container images, activeDeadlineSeconds, added tolerations, removed scheduling gates).
 */
final class BuiltInRules {
    private BuiltInRules() {
    }

    private static boolean core(ResourceType type, String kind) {
        return !type.custom() && type.group().isEmpty() && type.kind().equals(kind);
    }

    /** Defaults and conversions applied to every create and update body, as decoding does in kube-apiserver. */
    static void normalize(ResourceType type, ObjectNode o) {
        WorkloadDefaults.normalize(type, o);
        if (core(type, "Pod") && o.get("spec") instanceof ObjectNode spec) {
            if (!spec.hasNonNull("schedulerName")) {
                spec.put("schedulerName", "default-scheduler");
            }
            if (!spec.hasNonNull("restartPolicy")) {
                spec.put("restartPolicy", "Always");
            }
            if (!spec.hasNonNull("terminationGracePeriodSeconds")) {
                spec.put("terminationGracePeriodSeconds", 30);
            }
            if (!spec.hasNonNull("dnsPolicy")) {
                spec.put("dnsPolicy", "ClusterFirst");
            }
        }
        if (core(type, "Secret") && o.get("stringData") instanceof ObjectNode sd) {
            ObjectNode data = o.get("data") instanceof ObjectNode d ? d : o.putObject("data");
            Iterator<Map.Entry<String, JsonNode>> it = sd.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                data.put(e.getKey(), Base64.getEncoder().encodeToString(e.getValue().asText().getBytes(StandardCharsets.UTF_8)));
            }
            o.remove("stringData");
        }
    }

    static void allocateOnCreate(ResourceType type, ObjectNode o, Random random) {
        WorkloadDefaults.onCreate(type, o);
        if (!core(type, "Service")) {
            return;
        }
        ObjectNode spec = o.get("spec") instanceof ObjectNode s ? s : o.putObject("spec");
        if (!spec.has("type")) {
            spec.put("type", "ClusterIP");
        }
        String ip = spec.path("clusterIP").asText("");
        if (ip.isEmpty() && !spec.path("type").asText().equals("ExternalName")) {
            ip = "10.96." + random.nextInt(256) + "." + (1 + random.nextInt(254));
            spec.put("clusterIP", ip);
        }
        if (!ip.isEmpty() && !spec.has("clusterIPs")) {
            spec.putArray("clusterIPs").add(ip);
        }
    }

    static void validateUpdate(ResourceType type, ObjectNode old, ObjectNode next, String name) {
        if (core(type, "Service")) {
            JsonNode oldIp = old.path("spec").path("clusterIP");
            if (next.get("spec") instanceof ObjectNode spec && !oldIp.isMissingNode() && JsonPaths.missing(spec.get("clusterIP"))) {
                spec.set("clusterIP", oldIp);
                spec.set("clusterIPs", old.path("spec").path("clusterIPs").deepCopy());
            } else if (!oldIp.equals(next.path("spec").path("clusterIP"))) {
                throw ApiException.invalid(type, name, "spec.clusterIPs[0]: Invalid value: field is immutable");
            }
        }
        if (core(type, "Pod")) {
            validatePodSpecUpdate(type, old, next, name);
        }
    }

    private static void validatePodSpecUpdate(ResourceType type, ObjectNode old, ObjectNode next, String name) {
        JsonNode oldSpec = old.path("spec");
        JsonNode newSpec = next.path("spec");
        ObjectNode a = comparable(oldSpec);
        ObjectNode b = comparable(newSpec);
        if (!a.equals(b)) {
            throw ApiException.invalid(type, name, "spec: Forbidden: pod updates may not change fields other than "
                    + "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
                    + "`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` "
                    + "(allow it to be set to 1 if it was previously negative)");
        }
        JsonNode oldTol = oldSpec.path("tolerations");
        for (JsonNode t : oldTol) {
            boolean kept = false;
            for (JsonNode n : newSpec.path("tolerations")) {
                if (n.equals(t)) {
                    kept = true;
                }
            }
            if (!kept) {
                throw ApiException.invalid(type, name, "spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds");
            }
        }
    }

    /** The pod spec without the fields an update may change. */
    private static ObjectNode comparable(JsonNode spec) {
        ObjectNode c = spec.isObject() ? ((ObjectNode) spec).deepCopy() : new ObjectNode(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance);
        for (String list : List.of("containers", "initContainers", "ephemeralContainers")) {
            if (c.get(list) instanceof ArrayNode arr) {
                for (JsonNode container : arr) {
                    if (container instanceof ObjectNode oc) {
                        oc.remove("image");
                    }
                }
            }
        }
        c.remove("activeDeadlineSeconds");
        c.remove("tolerations");
        c.remove("schedulingGates");
        c.remove("ephemeralContainers");
        c.remove("terminationGracePeriodSeconds");
        return c;
    }
}
