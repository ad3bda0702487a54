package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * A workload's pod is deleted only when a spec asks: fewer replicas, a new revision to roll out, the pod named in
 * scaleStrategy.podsToDelete, the pod finished, the workload going away, or the run deleting it itself. The watches of
 * pods and workloads are not ordered with each other, so each deletion is judged a few seconds later, against the
 * workload as it stands then.
 */
public final class UnrequestedDeletionInvariant extends DeletionJudgingInvariant {
    static final long JUDGE_AFTER_MS = 5000;

    private record Pending(String workloadUid, String podKey, String podName, String revision, boolean finished,
                           long activeBefore, int replicasThen, boolean listedThen, long atMillis) {
    }

    private final List<Pending> pending = new ArrayList<>();
    UnrequestedDeletionInvariant(Set<String> expectedDeletions) {
        super("no-unrequested-deletion", expectedDeletions);
    }

    @Override
    public void onPod(PodEvent event, ClusterView view, Violations out) {
        JsonNode pod = event.pod();
        String owner = ClusterView.controllerUid(pod);
        if (owner == null || view.kind(owner) == null) {
            return;
        }
        JsonNode prev = event.previous();
        boolean startsDeletion = event.type() == PodEvent.Type.DELETED
                ? prev == null || !ClusterView.terminating(prev)
                : ClusterView.terminating(pod) && (prev == null || !ClusterView.terminating(prev));
        if (!startsDeletion) {
            return;
        }
        JsonNode w = view.workload(owner);
        WorkloadKind kind = view.kind(owner);
        JsonNode before = prev != null ? prev : pod;
        String phase = before.at("/status/phase").asText("");
        // The pod's own event comes before the view drops it: count it as active if it was.
        long activeBefore = view.podsOf(owner).stream().filter(p -> !ClusterView.uid(p).equals(ClusterView.uid(pod)))
                .filter(ClusterView::active).count() + (ClusterView.active(before) ? 1 : 0);
        String name = pod.at("/metadata/name").asText();
        pending.add(new Pending(owner, ClusterView.key(pod), name, ClusterView.revision(before),
                "Succeeded".equals(phase) || "Failed".equals(phase), activeBefore,
                w == null ? 0 : kind.replicas(w), w != null && listed(w, name), event.atMillis()));
    }

    @Override
    public void settle(ClusterView view, long nowMillis, boolean finalCheck, Violations out) {
        for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            if (!finalCheck && nowMillis - p.atMillis() < JUDGE_AFTER_MS) {
                continue;
            }
            it.remove();
            String why = unjustified(p, view);
            if (why != null) {
                out.report(new Violation(name(), p.podKey(), why, p.atMillis()));
            }
        }
    }

    /** Null when some spec asked for the deletion, else what was wrong. */
    private String unjustified(Pending p, ClusterView view) {
        JsonNode w = view.workload(p.workloadUid());
        if (w == null || view.retiring(w) || p.finished() || p.listedThen()
                || runDeleted(p.podKey()) || listed(w, p.podName())) {
            return null;
        }
        int replicas = Math.min(p.replicasThen(), view.kind(p.workloadUid()).replicas(w));
        if (p.activeBefore() > replicas) {
            return null;
        }
        String updateRevision = w.at("/status/updateRevision").asText(null);
        if (p.revision() != null && updateRevision != null && !p.revision().equals(updateRevision)) {
            return null;
        }
        return "deleted at revision " + p.revision() + " (the update revision) with " + p.activeBefore()
                + " active pods for " + replicas + " replicas, not listed in podsToDelete";
    }

    private static boolean listed(JsonNode w, String podName) {
        for (JsonNode n : w.at("/spec/scaleStrategy/podsToDelete")) {
            if (podName.equals(n.asText())) {
                return true;
            }
        }
        return false;
    }
}
