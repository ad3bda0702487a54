package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Advanced DaemonSet's two promises, judged per node (issue 18's Safety): never two active pods of one set on a
 * node except during a surge (then at most two: the old one and its replacement), and never more nodes without an
 * available pod than maxUnavailable during an update. The second is armed once every node the set was desired on
 * (status.desiredNumberScheduled) had an available pod, over those nodes, and armed again when the desired count
 * changes (nodes added or removed make a node podless by nature).
 */
public final class DaemonSetNodeInvariant extends WorkloadPodsInvariant {
    private final Map<String, Set<String>> armedNodes = new HashMap<>();
    private final Map<String, Integer> armedDesired = new HashMap<>();
    private final Set<String> crowded = new HashSet<>();

    DaemonSetNodeInvariant() {
        super("daemonset-per-node");
    }

    @Override
    public void settle(ClusterView view, long nowMillis, boolean finalCheck, Violations out) {
        for (String uid : view.workloads().keySet()) {
            check(uid, view, nowMillis, out);
        }
    }

    @Override
    void check(String uid, ClusterView view, long now, Violations out) {
        JsonNode w = view.workload(uid);
        WorkloadKind kind = view.kind(uid);
        if (w == null || kind == null || !kind.perNode() || view.retiring(w)) {
            armedNodes.remove(uid);
            armedDesired.remove(uid);
            return;
        }
        int minReady = kind.minReadySeconds(w);
        Map<String, List<JsonNode>> byNode = new TreeMap<>();
        for (JsonNode p : view.podsOf(uid)) {
            String node = node(p);
            if (node != null && ClusterView.active(p)) {
                byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(p);
            }
        }
        int surge = kind.maxSurge(w);
        int perNode = surge > 0 ? 2 : 1;
        List<String> over = new ArrayList<>();
        byNode.forEach((node, pods) -> {
            if (pods.size() > perNode) {
                over.add(node + " (" + String.join(", ", pods.stream().map(p -> p.at("/metadata/name").asText()).toList()) + ")");
            }
        });
        // Reported through its own breach set: the budget below shares the base class's.
        if (over.isEmpty()) {
            crowded.remove(uid);
        } else if (crowded.add(uid)) {
            out.report(new Violation(name(), ClusterView.key(w), "more than " + perNode + " active "
                    + (perNode == 1 ? "pod" : "pods") + " on a node (maxSurge " + surge + "): " + String.join("; ", over), now));
        }

        Set<String> availableOn = new HashSet<>();
        byNode.forEach((node, pods) -> {
            if (pods.stream().anyMatch(p -> ClusterView.available(p, minReady, now))) {
                availableOn.add(node);
            }
        });
        int desired = kind.replicas(w);
        Integer armedAt = armedDesired.get(uid);
        if (armedAt == null || armedAt != desired) {
            armedNodes.remove(uid);
            armedDesired.remove(uid);
            forgetBreach(uid);
            if (desired > 0 && availableOn.size() >= desired) {
                armedNodes.put(uid, new HashSet<>(availableOn));
                armedDesired.put(uid, desired);
            }
            return;
        }
        List<String> without = new ArrayList<>();
        for (String node : armedNodes.get(uid)) {
            if (!availableOn.contains(node)) {
                without.add(node);
            }
        }
        without.sort(null);
        int budget = kind.maxUnavailable(w);
        judge(uid, w, without.size() > budget, () -> without.size() + " of " + desired + " nodes without an available "
                + "pod, maxUnavailable allows " + budget + " (" + String.join(", ", without) + ")", now, out);
    }

    /** The node a pod runs on or is pinned to (the scheduler binds daemon pods through a matchFields term). */
    static String node(JsonNode pod) {
        String bound = pod.at("/spec/nodeName").asText("");
        if (!bound.isEmpty()) {
            return bound;
        }
        for (JsonNode term : pod.at("/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms")) {
            for (JsonNode f : term.path("matchFields")) {
                if ("metadata.name".equals(f.path("key").asText()) && f.path("values").size() == 1) {
                    return f.path("values").get(0).asText();
                }
            }
        }
        return null;
    }
}
