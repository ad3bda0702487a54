package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What an admission step is asked about. {@code object} is null for DELETE, {@code oldObject} null for CREATE;
 * both are in the version the client used ({@code version}).
 */
public record AdmissionAttributes(ResourceType type, String version, String operation, String subresource,
                                  String namespace, String name, ObjectNode object, ObjectNode oldObject,
                                  boolean dryRun) {

    public AdmissionAttributes withObject(ObjectNode changed) {
        return new AdmissionAttributes(type, version, operation, subresource, namespace, name, changed, oldObject, dryRun);
    }
}
