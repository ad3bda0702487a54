package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Set;

/**
 * Pods no workload selects and no workload controls are left alone: their labels, annotations, owners, finalizers
 * and images never change and they are never deleted (unless the run itself asked). Status changes (kubelet,
 * scheduler) are not touches.
 */
public final class BystanderInvariant extends DeletionJudgingInvariant {
    private static final List<String> WATCHED = List.of("/metadata/labels", "/metadata/annotations",
            "/metadata/ownerReferences", "/metadata/finalizers", "/metadata/deletionTimestamp", "/spec/containers");
    BystanderInvariant(Set<String> expectedDeletions) {
        super("bystander-untouched", expectedDeletions);
    }

    @Override
    public void onPod(PodEvent event, ClusterView view, Violations out) {
        JsonNode pod = event.pod();
        if (event.previous() == null || ClusterView.controllerUid(pod) != null || view.selectedByAnyWorkload(pod)) {
            return;
        }
        String key = ClusterView.key(pod);
        boolean deleting = event.type() == PodEvent.Type.DELETED || ClusterView.terminating(pod);
        if (deleting && runDeleted(key)) {
            return;
        }
        if (event.type() == PodEvent.Type.DELETED) {
            out.report(new Violation(name(), key, "a pod outside every selector was deleted", event.atMillis()));
            return;
        }
        for (String path : WATCHED) {
            if (!pod.at(path).equals(event.previous().at(path))) {
                out.report(new Violation(name(), key, "a pod outside every selector changed at " + path,
                        event.atMillis()));
                return;
            }
        }
    }
}
