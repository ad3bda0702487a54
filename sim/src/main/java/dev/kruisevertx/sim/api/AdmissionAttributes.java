package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What an admission step is asked about. {@code object} is null for DELETE, {@code oldObject} null for CREATE;
 * both are in the version the client used ({@code version}). {@code kind} is the object's kind when it is not the
 * resource's own (a subresource such as {@code pods/eviction} takes an Eviction), else null.
 */
public record AdmissionAttributes(ResourceType type, String version, String operation, String subresource,
                                  String namespace, String name, ObjectNode object, ObjectNode oldObject,
                                  boolean dryRun, Kind kind) {

    /** The group, version and kind of a subresource's body. */
    public record Kind(String group, String version, String kind) {
    }

    public AdmissionAttributes(ResourceType type, String version, String operation, String subresource,
                               String namespace, String name, ObjectNode object, ObjectNode oldObject, boolean dryRun) {
        this(type, version, operation, subresource, namespace, name, object, oldObject, dryRun, null);
    }

    public AdmissionAttributes withObject(ObjectNode changed) {
        return new AdmissionAttributes(type, version, operation, subresource, namespace, name, changed, oldObject, dryRun, kind);
    }

    /** The kind the review names: the subresource body's, or the resource's own. */
    public Kind requestKind() {
        return kind != null ? kind : new Kind(type.group(), version, type.kind());
    }
}
