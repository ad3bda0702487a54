package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A pod event as a watch delivers it.
 *
 * @param previous the pod as last seen before this event (null on ADDED or when not seen before)
 */
public record PodEvent(Type type, JsonNode pod, JsonNode previous, long atMillis) {
    public enum Type { ADDED, MODIFIED, DELETED }
}
