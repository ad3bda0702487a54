package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;

/** A workload event; {@code previous} is the workload as last seen (null when new). */
public record WorkloadEvent(PodEvent.Type type, WorkloadKind kind, JsonNode workload, JsonNode previous,
                            long atMillis) {
}
