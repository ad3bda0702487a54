package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * No more pods unavailable than the workload's maxUnavailable allows: replicas minus available pods stays within the
 * budget. Checked once the workload has been fully available at its current replica count (a scale-up or a first
 * start makes pods unavailable by nature), and again after each change of replicas.
 */
public final class MaxUnavailableInvariant extends WorkloadPodsInvariant {
    private final Map<String, Integer> armedAt = new HashMap<>();

    MaxUnavailableInvariant() {
        super("max-unavailable");
    }

    @Override
    public void settle(ClusterView view, long nowMillis, boolean finalCheck, Violations out) {
        for (String uid : view.workloads().keySet()) {
            check(uid, view, nowMillis, out);
        }
    }

    /** Each pod not available and why, so a report says what the checker saw: names and states only. */
    private static String describe(List<JsonNode> pods, int minReady, long now) {
        List<String> out = new ArrayList<>();
        for (JsonNode p : pods) {
            if (ClusterView.available(p, minReady, now)) {
                continue;
            }
            String name = p.at("/metadata/name").asText();
            String why = ClusterView.terminating(p) ? "terminating" : !ClusterView.active(p) ? "finished"
                    : ClusterView.ready(p) ? "ready for less than minReadySeconds " + minReady : "not ready";
            out.add(name + " " + why + " at revision " + ClusterView.revision(p));
        }
        return String.join(", ", out);
    }

    @Override
    void check(String uid, ClusterView view, long now, Violations out) {
        JsonNode w = view.workload(uid);
        if (w == null || view.retiring(w) || view.kind(uid).perNode()) {
            armedAt.remove(uid);
            return;
        }
        WorkloadKind kind = view.kind(uid);
        int replicas = kind.replicas(w);
        int minReady = kind.minReadySeconds(w);
        long available = view.podsOf(uid).stream().filter(p -> ClusterView.available(p, minReady, now)).count();
        Integer armed = armedAt.get(uid);
        if (armed == null || armed != replicas) {
            armedAt.remove(uid);
            forgetBreach(uid);
            if (available >= replicas) {
                armedAt.put(uid, replicas);
            }
            return;
        }
        long unavailable = replicas - available;
        int budget = kind.maxUnavailable(w);
        judge(uid, w, unavailable > budget, () -> unavailable + " of " + replicas + " pods unavailable, maxUnavailable"
                + " allows " + budget + " (" + describe(view.podsOf(uid), minReady, now) + ")", now, out);
    }
}
