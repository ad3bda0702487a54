package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.Map;

/**
 * No more active pods than replicas + maxSurge. After a scale-down the old count holds until the surplus is gone (the
 * controller needs the time to delete it).
 */
public final class MaxSurgeInvariant extends WorkloadPodsInvariant {
    private final Map<String, Integer> carried = new HashMap<>();
    private final Map<String, Integer> lastReplicas = new HashMap<>();

    MaxSurgeInvariant() {
        super("max-surge");
    }

    @Override
    void check(String uid, ClusterView view, long now, Violations out) {
        JsonNode w = view.workload(uid);
        if (w == null || view.retiring(w) || view.kind(uid).perNode()) {
            return;
        }
        WorkloadKind kind = view.kind(uid);
        int replicas = kind.replicas(w);
        Integer before = lastReplicas.put(uid, replicas);
        if (before != null && before > replicas) {
            carried.merge(uid, before, Math::max);
        }
        int surge = kind.maxSurge(w);
        long active = view.podsOf(uid).stream().filter(ClusterView::active).count();
        if (active <= replicas + surge) {
            carried.remove(uid);
        }
        int limit = Math.max(replicas, carried.getOrDefault(uid, 0)) + surge;
        judge(uid, w, active > limit, () -> active + " active pods, replicas " + replicas + " + maxSurge " + surge
                + " allow " + limit, now, out);
    }
}
