package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.DesiredOrdinals;
import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one reconcile of an Advanced StatefulSet reads from the cache, taken once and never changed afterwards: the
 * set, the ordinals it runs, its pods by ordinal, the pods to release (no longer selected) and the orphans to adopt,
 * its ControllerRevisions, and the PVCs the decision looks at by name (those of the pods that exist and of the
 * ordinals a plan may create next).
 *
 * <p>Built by {@link StatefulSetSnapshotReader} from the cache, or directly from objects by tests and benchmarks.
 */
record StatefulSetSnapshot(StatefulSet set, DesiredOrdinals desired, Map<Integer, Pod> pods, List<Pod> owned,
                           List<Pod> release, List<Pod> adopt, List<ControllerRevision> history,
                           Map<String, PersistentVolumeClaim> claims) {
    /**
     * The snapshot of {@code set} whose pods are {@code owned}: each controlled by it, selected and named
     * {@code <set>-<ordinal>}.
     */
    static StatefulSetSnapshot of(StatefulSet set, DesiredOrdinals desired, List<Pod> owned, List<Pod> release,
                                  List<Pod> adopt, List<ControllerRevision> history,
                                  Map<String, PersistentVolumeClaim> claims) {
        Map<Integer, Pod> byOrdinal = new HashMap<>();
        for (Pod p : owned) {
            byOrdinal.put(PodOrdinals.ordinalOf(set.getMetadata().getName(), p.getMetadata().getName()), p);
        }
        return new StatefulSetSnapshot(set, desired, Collections.unmodifiableMap(byOrdinal), List.copyOf(owned),
                List.copyOf(release), List.copyOf(adopt), List.copyOf(history), Map.copyOf(claims));
    }

    String setName() {
        return set.getMetadata().getName();
    }

    String namespace() {
        return set.getMetadata().getNamespace();
    }

    /** The PVC of that name as the cache held it, or null. */
    PersistentVolumeClaim claim(String name) {
        return claims.get(name);
    }

    /** The existing, not terminating PVCs of a pod, each with its template. */
    List<Map.Entry<PersistentVolumeClaim, PersistentVolumeClaim>> claimsOf(Pod pod) {
        List<PersistentVolumeClaim> templates = set.getSpec().getVolumeClaimTemplates();
        int ordinal = PodOrdinals.ordinalOf(setName(), pod.getMetadata().getName());
        if (templates == null || ordinal < 0) {
            return List.of();
        }
        List<Map.Entry<PersistentVolumeClaim, PersistentVolumeClaim>> out = new ArrayList<>();
        for (PersistentVolumeClaim t : templates) {
            PersistentVolumeClaim c = claims.get(PodOrdinals.claimName(t.getMetadata().getName(), setName(), ordinal));
            if (c != null && c.getMetadata().getDeletionTimestamp() == null) {
                out.add(Map.entry(c, t));
            }
        }
        return out;
    }

    /** Whether pods must be released or orphans adopted before anything else is decided. */
    boolean ownershipChanges() {
        return !release.isEmpty() || !adopt.isEmpty();
    }
}
