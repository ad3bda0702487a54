package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/** A workload's status.observedGeneration and status.collisionCount never go down. */
public final class MonotonicStatusInvariant implements Invariant {
    private static final List<String> FIELDS = List.of("/status/observedGeneration", "/status/collisionCount");

    @Override
    public String name() {
        return "status-never-backwards";
    }

    @Override
    public void onWorkload(WorkloadEvent event, ClusterView view, Violations out) {
        if (event.previous() == null || event.type() == PodEvent.Type.DELETED) {
            return;
        }
        for (String field : FIELDS) {
            JsonNode was = event.previous().at(field);
            JsonNode now = event.workload().at(field);
            if (was.isNumber() && now.isNumber() && now.asLong() < was.asLong()) {
                out.report(new Violation(name(), ClusterView.key(event.workload()), field + " went from "
                        + was.asLong() + " to " + now.asLong(), event.atMillis()));
            } else if (was.isNumber() && !now.isNumber()) {
                out.report(new Violation(name(), ClusterView.key(event.workload()), field + " went from "
                        + was.asLong() + " to unset", event.atMillis()));
            }
        }
    }
}
