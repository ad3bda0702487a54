package dev.kruisevertx.daemonset;

import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.scheduling.DaemonPlacement;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The nodes of one decision with their fit and the set's pods grouped by the node each is for (its nodeName, else
 * the node its pinning affinity names). Built once per decision; pods without a target node are left out.
 */
final class DaemonNodes {
    /**
     * Scheduled before unscheduled, then oldest first, then by name (OpenKruise's podByCreationTimestampAndPhase).
     * Timestamps have whole seconds, so pods created within one second are ordered by name. A pod without a
     * creationTimestamp has Go's zero time there, so it sorts as the oldest.
     */
    static final Comparator<Pod> OLDEST_FIRST = Comparator
            .comparing((Pod p) -> !Pods.isAssigned(p))
            .thenComparing(p -> {
                Instant t = Pods.creationTime(p);
                return t == null ? Instant.MIN : t;
            })
            .thenComparing(p -> p.getMetadata().getName() == null ? "" : p.getMetadata().getName());

    final TreeMap<String, Node> nodes = new TreeMap<>();
    final Map<String, DaemonPlacement.Fit> fit = new HashMap<>();
    /** Pods per target node, oldest first; includes nodes that do not exist. */
    final Map<String, List<Pod>> podsByNode = new HashMap<>();
    int podsWithoutNode;
    private final int minReadySeconds;
    private final Instant now;
    /** Availability per pod, worked out once per decision (it parses the Ready condition's time). */
    private final Map<Pod, Boolean> available = new java.util.IdentityHashMap<>();

    DaemonNodes(DaemonPlacement placement, List<Node> nodeList, List<Pod> pods, int minReadySeconds, Instant now) {
        this.minReadySeconds = minReadySeconds;
        this.now = now;
        for (Node n : nodeList) {
            if (n.getMetadata() != null && n.getMetadata().getName() != null) {
                nodes.put(n.getMetadata().getName(), n);
                fit.put(n.getMetadata().getName(), placement.fit(n));
            }
        }
        for (Pod p : pods) {
            String target = p.getSpec() == null ? null : DaemonPlacement.targetNode(p.getSpec()).orElse(null);
            if (target == null) {
                podsWithoutNode++;
                continue;
            }
            podsByNode.computeIfAbsent(target, k -> new ArrayList<>()).add(p);
        }
        podsByNode.values().forEach(l -> l.sort(OLDEST_FIRST));
    }

    /**
     * {@link Pods#isAvailable} with the set's minReadySeconds at the decision's time, and not in the middle of an
     * in-place update (upstream's isDaemonPodAvailable), memoised. Upstream's rolling update reads only the first
     * part: a pod just updated in place then still counts as available until the kubelet turns it not Ready, and the
     * next reconcile can take down another node within that window. Reading both keeps maxUnavailable.
     */
    boolean available(Pod pod) {
        return available.computeIfAbsent(pod, p -> Pods.isAvailable(p, minReadySeconds, now)
                && DaemonSetStatusCalculator.inPlaceReady(p));
    }

    List<Pod> podsOn(String node) {
        return podsByNode.getOrDefault(node, List.of());
    }

    boolean shouldRun(String node) {
        DaemonPlacement.Fit f = fit.get(node);
        return f != null && f.shouldRun();
    }

    int desired() {
        int n = 0;
        for (DaemonPlacement.Fit f : fit.values()) {
            if (f.shouldRun()) {
                n++;
            }
        }
        return n;
    }

    /**
     * The new and the old pod of a node among its pods that are not terminating (upstream's findUpdatedPodsOnNode);
     * null when there are two of either kind (the manage step prunes those first).
     */
    static NewAndOld newAndOld(List<Pod> pods, String updateRevision) {
        Pod newPod = null;
        Pod oldPod = null;
        for (Pod p : pods) {
            if (Pods.isTerminating(p)) {
                continue;
            }
            if (Pods.atRevision(p, updateRevision)) {
                if (newPod != null) {
                    return null;
                }
                newPod = p;
            } else {
                if (oldPod != null) {
                    return null;
                }
                oldPod = p;
            }
        }
        return new NewAndOld(newPod, oldPod);
    }

    record NewAndOld(Pod newPod, Pod oldPod) {
    }

    static boolean nilOrPreDeleting(Pod p) {
        return p == null || Pods.isPreparingDelete(p);
    }
}
