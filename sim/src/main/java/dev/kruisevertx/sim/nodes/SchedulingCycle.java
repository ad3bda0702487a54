package dev.kruisevertx.sim.nodes;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * One scheduling decision for one pod, as kube-scheduler's default profile makes it: every node goes through the
 * filters (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit, PodTopologySpread, InterPodAffinity;
 * the first failure is the node's reason), then the nodes that pass are scored (NodeAffinity preferred terms ×2,
 * InterPodAffinity preferred terms ×2, PodTopologySpread ScheduleAnyway ×2, TaintToleration PreferNoSchedule ×3,
 * free pod slots ×1, each normalized to 0..100) and the best wins; ties go to the node with fewer pods, then by name,
 * where kube-scheduler would pick at random. Pure: it reads only the {@link ClusterSnapshot}.
 */
final class SchedulingCycle {
    private SchedulingCycle() {
    }

    /** Either a node to bind to, or why none fits: the {@code PodScheduled=False} message. */
    record Decision(Optional<String> node, String unschedulableMessage) {
    }

    static Decision decide(Pod pod, ClusterSnapshot snapshot) {
        List<Node> nodes = new ArrayList<>(snapshot.nodes());
        nodes.sort(Comparator.comparing(n -> n.getMetadata().getName()));
        TopologySpread spread;
        InterPodAffinity podAffinity;
        try {
            spread = TopologySpread.of(pod, snapshot);
            podAffinity = InterPodAffinity.of(pod, snapshot);
        } catch (IllegalArgumentException e) {
            // A selector kube-apiserver would have refused (unknown operator, ...): the pod can go nowhere.
            return new Decision(Optional.empty(), "0/" + nodes.size() + " nodes are available: " + e.getMessage() + ".");
        }
        Map<String, Integer> reasons = new HashMap<>();
        List<Node> feasible = new ArrayList<>();
        for (Node n : nodes) {
            List<Pod> on = snapshot.podsOn(n.getMetadata().getName());
            Optional<String> why = NodeFit.reject(pod, n, on);
            if (why.isEmpty()) {
                why = spread.reject(n);
            }
            if (why.isEmpty()) {
                why = podAffinity.reject(n);
            }
            if (why.isPresent()) {
                reasons.merge(why.get(), 1, Integer::sum);
            } else {
                feasible.add(n);
            }
        }
        if (feasible.isEmpty()) {
            return new Decision(Optional.empty(), message(nodes.size(), reasons));
        }
        Map<String, Double> total = new HashMap<>();
        feasible.forEach(n -> total.put(n.getMetadata().getName(), 0.0));
        add(total, feasible, 2, n -> NodeFit.preferredAffinityWeight(pod, n), false);
        add(total, feasible, 2, podAffinity::score, false);
        if (spread.scores()) {
            add(total, feasible, 2, spread::crowding, true);
        }
        add(total, feasible, 3, n -> NodeFit.untoleratedPreferNoSchedule(pod, n), true);
        for (Node n : feasible) {
            total.merge(n.getMetadata().getName(), 100.0 * freeSlots(n, snapshot.podsOn(n.getMetadata().getName())), Double::sum);
        }
        Node best = feasible.stream().max(Comparator
                .<Node>comparingDouble(n -> total.get(n.getMetadata().getName()))
                .thenComparing(n -> -load(snapshot.podsOn(n.getMetadata().getName())))
                .thenComparing(n -> n.getMetadata().getName(), Comparator.reverseOrder())).orElseThrow();
        return new Decision(Optional.of(best.getMetadata().getName()), null);
    }

    /**
     * Adds one plugin's normalized score × weight: raw scores mapped to 0..100 over the feasible nodes (higher raw is
     * better, or lower when {@code lowerIsBetter}); nothing when every node scores the same.
     */
    private static void add(Map<String, Double> total, List<Node> nodes, int weight, ToDoubleFunction<Node> raw,
                            boolean lowerIsBetter) {
        Map<String, Double> values = new HashMap<>();
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (Node n : nodes) {
            double v = raw.applyAsDouble(n);
            values.put(n.getMetadata().getName(), v);
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        if (max == min) {
            return;
        }
        for (Map.Entry<String, Double> e : values.entrySet()) {
            double normalized = (e.getValue() - min) / (max - min);
            total.merge(e.getKey(), weight * 100.0 * (lowerIsBetter ? 1 - normalized : normalized), Double::sum);
        }
    }

    private static double freeSlots(Node node, List<Pod> on) {
        Quantity maxPods = node.getStatus() == null || node.getStatus().getAllocatable() == null ? null
                : node.getStatus().getAllocatable().get("pods");
        double cap = maxPods == null ? 110 : Math.max(1, maxPods.getNumericalAmount().doubleValue());
        return Math.max(0, 1 - load(on) / cap);
    }

    private static long load(List<Pod> on) {
        return on.stream().filter(NodeFit::occupies).count();
    }

    /**
     * kube-scheduler's FitError text: {@code 0/N nodes are available: } then "count reason" per reason, sorted as
     * strings and joined with ", ", then a period.
     */
    static String message(int nodeCount, Map<String, Integer> reasons) {
        StringBuilder msg = new StringBuilder().append("0/").append(nodeCount).append(" nodes are available");
        if (!reasons.isEmpty()) {
            List<String> parts = new ArrayList<>();
            reasons.forEach((r, n) -> parts.add(n + " " + r));
            parts.sort(null);
            msg.append(": ").append(String.join(", ", parts));
        }
        return msg.append('.').toString();
    }
}
