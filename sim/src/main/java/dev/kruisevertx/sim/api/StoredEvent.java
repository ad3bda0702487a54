package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One change to one object, kept in a resource's event log so watches can resume from a resourceVersion.
 * {@code previous} is null for ADDED; {@code object} is the final state for DELETED.
 */
public record StoredEvent(long resourceVersion, String type, ObjectNode previous, ObjectNode object) {
}
