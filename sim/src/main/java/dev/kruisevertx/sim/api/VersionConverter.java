package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Turns a stored object into another served version of its resource. The default only rewrites
 * {@code apiVersion} ("None" conversion strategy, which is what a CRD without a conversion webhook gets);
 * a webhook-backed converter plugs in here.
 */
public interface VersionConverter {
    VersionConverter NONE = (type, object, version) -> {
        ObjectNode copy = object.deepCopy();
        copy.put("apiVersion", type.apiVersion(version));
        return copy;
    };

    /** Returns a new object in {@code version}; never mutates {@code object}. */
    ObjectNode convert(ResourceType type, ObjectNode object, String version);
}
