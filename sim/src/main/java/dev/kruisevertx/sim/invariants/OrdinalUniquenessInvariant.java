package dev.kruisevertx.sim.invariants;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** One pod per ordinal of a workload with ordinals (Advanced StatefulSet), terminating pods included. */
public final class OrdinalUniquenessInvariant extends NamedInvariant {
    private final Map<String, Set<String>> podsByOrdinal = new HashMap<>();

    OrdinalUniquenessInvariant() {
        super("one-pod-per-ordinal");
    }

    @Override
    public void onPod(PodEvent event, ClusterView view, Violations out) {
        String owner = ClusterView.controllerUid(event.pod());
        WorkloadKind kind = owner == null ? null : view.kind(owner);
        if (kind == null || !kind.ordinals()) {
            return;
        }
        int ordinal = kind.ordinal(event.pod().at("/metadata/name").asText());
        if (ordinal < 0) {
            return;
        }
        String slot = owner + "#" + ordinal;
        Set<String> uids = podsByOrdinal.computeIfAbsent(slot, k -> new HashSet<>());
        String uid = ClusterView.uid(event.pod());
        if (event.type() == PodEvent.Type.DELETED) {
            uids.remove(uid);
            return;
        }
        if (uids.add(uid) && uids.size() > 1) {
            out.report(new Violation(name(), ClusterView.key(event.pod()), uids.size() + " pods exist for ordinal "
                    + ordinal, event.atMillis()));
        }
    }
}
