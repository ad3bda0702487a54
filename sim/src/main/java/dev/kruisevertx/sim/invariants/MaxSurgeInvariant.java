package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * No more active pods than replicas + maxSurge. After a scale-down the old count holds until the surplus is gone (the
 * controller needs the time to delete it).
 */
public final class MaxSurgeInvariant implements Invariant {
    private final Map<String, Integer> carried = new HashMap<>();
    private final Map<String, Integer> lastReplicas = new HashMap<>();
    private final Set<String> breached = new HashSet<>();

    @Override
    public String name() {
        return "max-surge";
    }

    @Override
    public void onPod(PodEvent event, ClusterView view, Violations out) {
        String owner = ClusterView.controllerUid(event.pod());
        if (owner != null && view.workload(owner) != null) {
            check(owner, view, event.atMillis(), out);
        }
    }

    @Override
    public void onWorkload(WorkloadEvent event, ClusterView view, Violations out) {
        check(ClusterView.uid(event.workload()), view, event.atMillis(), out);
    }

    private void check(String uid, ClusterView view, long now, Violations out) {
        JsonNode w = view.workload(uid);
        if (w == null || view.retiring(w)) {
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
        if (active > limit) {
            if (breached.add(uid)) {
                out.report(new Violation(name(), ClusterView.key(w), active + " active pods, replicas " + replicas
                        + " + maxSurge " + surge + " allow " + limit, now));
            }
        } else {
            breached.remove(uid);
        }
    }
}
