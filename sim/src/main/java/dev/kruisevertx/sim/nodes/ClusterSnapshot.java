package dev.kruisevertx.sim.nodes;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What one scheduling decision looks at: the nodes, the pods on each (bound or assumed, terminal ones left out, as
 * kube-scheduler's cache drops them) and, only when a term has a namespaceSelector, the labels of a namespace.
 */
record ClusterSnapshot(List<Node> nodes, Map<String, List<Pod>> podsByNode,
                       Function<String, Map<String, String>> namespaceLabels) {

    List<Pod> podsOn(String node) {
        return podsByNode.getOrDefault(node, List.of());
    }

    Map<String, Node> nodesByName() {
        Map<String, Node> out = new HashMap<>();
        for (Node n : nodes) {
            out.put(n.getMetadata().getName(), n);
        }
        return out;
    }
}
