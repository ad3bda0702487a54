package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.scheduling.NodeMatching;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The scheduler's per-node filters, as pure functions: nodeSelector, required node affinity (matchExpressions and
 * matchFields), taints and tolerations, unschedulable nodes, and capacity (cpu, memory, pod count); plus the raw
 * per-node scores of preferred node affinity and PreferNoSchedule taints. {@link #reject} names the first failing
 * filter.
 */
public final class NodeFit {
    private NodeFit() {
    }

    /**
     * Why {@code pod} cannot go to {@code node} given the pods already there, or empty when it fits. The filters run
     * in kube-scheduler's order (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit) and the first
     * that fails names the reason, in the scheduler's words.
     */
    public static Optional<String> reject(Pod pod, Node node, Collection<Pod> podsOnNode) {
        if (Boolean.TRUE.equals(node.getSpec() == null ? null : node.getSpec().getUnschedulable())
                && !tolerates(pod, new Taint("NoSchedule", "node.kubernetes.io/unschedulable", null, null))) {
            return Optional.of("node(s) were unschedulable");
        }
        Optional<Taint> untolerated = untoleratedTaint(pod, node);
        if (untolerated.isPresent()) {
            Taint t = untolerated.get();
            return Optional.of("node(s) had untolerated taint {" + t.getKey() + ": " + (t.getValue() == null ? "" : t.getValue()) + "}");
        }
        // A node whose kubelet never reported Ready and that carries no lifecycle taint (not written by this
        // simulator): kube-scheduler would try it, but nothing would run the pod there.
        if (!isReady(node)) {
            return Optional.of("node(s) were not ready");
        }
        if (!matchesNodeSelectorAndAffinity(pod, node)) {
            return Optional.of("node(s) didn't match Pod's node affinity/selector");
        }
        Map<String, Quantity> allocatable = node.getStatus() == null || node.getStatus().getAllocatable() == null
                ? Map.of() : node.getStatus().getAllocatable();
        long active = podsOnNode.stream().filter(NodeFit::occupies).count();
        Quantity maxPods = allocatable.get("pods");
        if (maxPods != null && active + 1 > maxPods.getNumericalAmount().longValue()) {
            return Optional.of("Too many pods");
        }
        for (String resource : List.of("cpu", "memory")) {
            Quantity cap = allocatable.get(resource);
            if (cap == null) {
                continue;
            }
            BigDecimal used = podsOnNode.stream().filter(NodeFit::occupies)
                    .map(p -> request(p, resource)).reduce(BigDecimal.ZERO, BigDecimal::add);
            if (used.add(request(pod, resource)).compareTo(cap.getNumericalAmount()) > 0) {
                return Optional.of("Insufficient " + resource);
            }
        }
        return Optional.empty();
    }

    /** The first NoSchedule or NoExecute taint of {@code node} that {@code pod} does not tolerate. */
    static Optional<Taint> untoleratedTaint(Pod pod, Node node) {
        return NodeMatching.untoleratedTaint(pod.getSpec(), node);
    }

    /** The pod's nodeSelector and required node affinity (matchExpressions on labels, matchFields on the name). */
    static boolean matchesNodeSelectorAndAffinity(Pod pod, Node node) {
        return NodeMatching.matchesNodeSelectorAndAffinity(pod.getSpec(), node);
    }

    static Map<String, String> labels(Node node) {
        return NodeMatching.labels(node);
    }

    static long preferredAffinityWeight(Pod pod, Node node) {
        return NodeMatching.preferredAffinityWeight(pod.getSpec(), node);
    }

    static int untoleratedPreferNoSchedule(Pod pod, Node node) {
        return NodeMatching.untoleratedPreferNoSchedule(pod.getSpec(), node);
    }

    /** Pods in a terminal phase free their resources. */
    static boolean occupies(Pod p) {
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        return !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }

    static boolean isReady(Node node) {
        return NodeMatching.isReady(node);
    }

    /** The pod's effective request: the sum over containers, or the largest init container if bigger. */
    public static BigDecimal request(Pod pod, String resource) {
        BigDecimal sum = BigDecimal.ZERO;
        for (Container c : pod.getSpec().getContainers()) {
            sum = sum.add(containerRequest(c, resource));
        }
        if (pod.getSpec().getInitContainers() != null) {
            for (Container c : pod.getSpec().getInitContainers()) {
                sum = sum.max(containerRequest(c, resource));
            }
        }
        return sum;
    }

    private static BigDecimal containerRequest(Container c, String resource) {
        if (c.getResources() == null) {
            return BigDecimal.ZERO;
        }
        Quantity q = c.getResources().getRequests() == null ? null : c.getResources().getRequests().get(resource);
        if (q == null && c.getResources().getLimits() != null) {
            q = c.getResources().getLimits().get(resource);
        }
        return q == null ? BigDecimal.ZERO : q.getNumericalAmount();
    }

    static boolean tolerates(Pod pod, Taint taint) {
        return NodeMatching.tolerates(pod.getSpec().getTolerations(), taint);
    }
}
