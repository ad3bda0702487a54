package dev.kruisevertx.cloneset;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The spread rank OpenKruise uses on scale-down when the pod template has {@code topologySpreadConstraints}: for
 * each constraint's topology key, the pods are grouped by their node's value of that label; inside a group the pod
 * the plain deletion order would remove first gets the group's size as rank, the next one less, down to 1. So a
 * pod in a crowded domain outranks every pod of a sparse one that the plain order would keep longer, and deleting
 * by highest rank evens the domains out. Each key's ranks are weighted by {@code ln(domains + 2)} (keys with more
 * domains weigh more) and the keys' ranks are summed. Inside a domain that is not a single host, pods crowding a
 * node go first (the same-node rank breaks ties).
 *
 * <p>Pods that are not scheduled, on nodes the cache does not know, or on nodes without the key's label get no
 * rank from that key.
 */
public final class SpreadConstraintRanker {
    /** Node label that names one host: its domains hold one node each, so no same-node tie-break is needed. */
    static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

    private SpreadConstraintRanker() {
    }

    /** The topology keys of a template's spread constraints, in order; empty when it has none. */
    public static List<String> topologyKeys(PodTemplateSpec template) {
        if (template == null || template.getSpec() == null || template.getSpec().getTopologySpreadConstraints() == null) {
            return List.of();
        }
        List<String> keys = new ArrayList<>();
        for (TopologySpreadConstraint c : template.getSpec().getTopologySpreadConstraints()) {
            // A constraint without a key names no domain; an empty key would group every labelled node together.
            if (c != null && c.getTopologyKey() != null) {
                keys.add(c.getTopologyKey());
            }
        }
        return keys;
    }

    /**
     * @param pods          the pods to rank (one revision group of a scale-down)
     * @param topologyKeys  node label keys, one per spread constraint
     * @param nodeLabels    labels of a node by name, null when the node is unknown
     * @return each pod's rank (0 for pods not ranked); higher goes first
     */
    public static ToDoubleFunction<Pod> rank(List<Pod> pods, List<String> topologyKeys,
                                             Function<String, Map<String, String>> nodeLabels) {
        // Nodes in the order their first pod appears, so equal pods keep a deterministic order.
        Map<String, Map<String, String>> nodes = new LinkedHashMap<>();
        Map<String, List<Pod>> podsOnNode = new LinkedHashMap<>();
        for (Pod p : pods) {
            String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
            if (node == null || node.isEmpty()) {
                continue;
            }
            if (!nodes.containsKey(node)) {
                Map<String, String> labels = nodeLabels.apply(node);
                if (labels == null) {
                    continue;
                }
                nodes.put(node, labels);
            }
            podsOnNode.computeIfAbsent(node, k -> new ArrayList<>()).add(p);
        }

        ToDoubleFunction<Pod> sameNode = PodDeletionOrder.sameNodeRank(pods);
        Map<Pod, Double> ranks = new IdentityHashMap<>();
        for (String key : topologyKeys) {
            Map<String, List<Pod>> domains = new LinkedHashMap<>();
            for (Map.Entry<String, Map<String, String>> node : nodes.entrySet()) {
                String value = node.getValue().get(key);
                if (value != null) {
                    domains.computeIfAbsent(value, k -> new ArrayList<>()).addAll(podsOnNode.get(node.getKey()));
                }
            }
            PodDeletionOrder order = new PodDeletionOrder(HOSTNAME_LABEL.equals(key) ? null : sameNode, null);
            double weight = Math.log(domains.size() + 2);
            for (List<Pod> inDomain : domains.values()) {
                List<Pod> sorted = order.sort(inDomain);
                for (int i = 0; i < sorted.size(); i++) {
                    ranks.merge(sorted.get(i), (sorted.size() - i) * weight, Double::sum);
                }
            }
        }
        return p -> ranks.getOrDefault(p, 0.0);
    }
}
