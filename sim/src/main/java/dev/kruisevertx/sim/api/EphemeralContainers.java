package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.HashSet;
import java.util.Set;

/**
 * The {@code pods/ephemeralcontainers} subresource: a write may only add ephemeral containers (with names no other
 * container of the pod has, an image, and no ports, probes or resources, as kube-apiserver validates); existing ones
 * can be neither changed nor removed, and nothing else of the pod changes.
 */
final class EphemeralContainers {
    private EphemeralContainers() {
    }

    static ObjectNode apply(ResourceType type, ObjectNode oldView, ObjectNode proposed, String name) {
        ObjectNode next = oldView.deepCopy();
        JsonNode wanted = proposed.path("spec").path("ephemeralContainers");
        if (!wanted.isMissingNode() && !wanted.isNull() && !wanted.isArray()) {
            throw ApiException.invalid(type, name, "spec.ephemeralContainers: Invalid value: must be a list");
        }
        ArrayNode old = oldView.path("spec").get("ephemeralContainers") instanceof ArrayNode a ? a : null;
        int oldSize = old == null ? 0 : old.size();
        if (wanted.size() < oldSize) {
            throw ApiException.invalid(type, name, "spec.ephemeralContainers: Forbidden: existing ephemeral containers may not be removed");
        }
        for (int i = 0; i < oldSize; i++) {
            if (!old.get(i).equals(wanted.get(i))) {
                throw ApiException.invalid(type, name, "spec.ephemeralContainers[" + i + "]: Forbidden: existing ephemeral containers \""
                        + old.get(i).path("name").asText() + "\" may not be changed");
            }
        }
        Set<String> names = new HashSet<>();
        for (String list : new String[]{"containers", "initContainers", "ephemeralContainers"}) {
            for (JsonNode c : oldView.path("spec").path(list)) {
                names.add(c.path("name").asText());
            }
        }
        for (int i = oldSize; i < wanted.size(); i++) {
            JsonNode c = wanted.get(i);
            String path = "spec.ephemeralContainers[" + i + "]";
            String cname = c.path("name").asText("");
            if (cname.isEmpty()) {
                throw ApiException.invalid(type, name, path + ".name: Required value");
            }
            if (!names.add(cname)) {
                throw ApiException.invalid(type, name, path + ".name: Duplicate value: \"" + cname + "\"");
            }
            if (c.path("image").asText("").isEmpty()) {
                throw ApiException.invalid(type, name, path + ".image: Required value");
            }
            for (String forbidden : new String[]{"ports", "livenessProbe", "readinessProbe", "startupProbe", "lifecycle", "resources"}) {
                JsonNode f = c.get(forbidden);
                if (f != null && !f.isNull() && !(f.isContainerNode() && f.isEmpty())) {
                    throw ApiException.invalid(type, name, path + "." + forbidden + ": Forbidden: cannot be set for an Ephemeral Container");
                }
            }
        }
        ((ObjectNode) next.get("spec")).set("ephemeralContainers", wanted.deepCopy());
        return next;
    }
}
