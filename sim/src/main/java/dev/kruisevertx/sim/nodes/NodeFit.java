package dev.kruisevertx.sim.nodes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;

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
        if (node.getSpec() == null || node.getSpec().getTaints() == null) {
            return Optional.empty();
        }
        for (Taint t : node.getSpec().getTaints()) {
            if (("NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect())) && !tolerates(pod, t)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** The pod's nodeSelector and required node affinity (matchExpressions on labels, matchFields on the name). */
    static boolean matchesNodeSelectorAndAffinity(Pod pod, Node node) {
        Map<String, String> labels = labels(node);
        Map<String, String> selector = pod.getSpec().getNodeSelector();
        if (selector != null) {
            for (Map.Entry<String, String> e : selector.entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        return requiredAffinityMatches(pod, node, labels);
    }

    static Map<String, String> labels(Node node) {
        return node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
    }

    /**
     * The sum of the weights of the pod's preferred node affinity terms that {@code node} matches (the NodeAffinity
     * score plugin's raw score).
     */
    static long preferredAffinityWeight(Pod pod, Node node) {
        if (pod.getSpec().getAffinity() == null || pod.getSpec().getAffinity().getNodeAffinity() == null
                || pod.getSpec().getAffinity().getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution() == null) {
            return 0;
        }
        long sum = 0;
        for (PreferredSchedulingTerm t : pod.getSpec().getAffinity().getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution()) {
            if (t.getPreference() != null && t.getWeight() != null && t.getWeight() != 0
                    && termMatches(t.getPreference(), node, labels(node))) {
                sum += t.getWeight();
            }
        }
        return sum;
    }

    /** How many PreferNoSchedule taints of {@code node} the pod does not tolerate (TaintToleration's raw score). */
    static int untoleratedPreferNoSchedule(Pod pod, Node node) {
        if (node.getSpec() == null || node.getSpec().getTaints() == null) {
            return 0;
        }
        int n = 0;
        for (Taint t : node.getSpec().getTaints()) {
            if ("PreferNoSchedule".equals(t.getEffect()) && !tolerates(pod, t)) {
                n++;
            }
        }
        return n;
    }

    /** Pods in a terminal phase free their resources. */
    static boolean occupies(Pod p) {
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        return !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }

    static boolean isReady(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return false;
        }
        return node.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
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
        List<Toleration> tolerations = pod.getSpec().getTolerations();
        if (tolerations == null) {
            return false;
        }
        for (Toleration t : tolerations) {
            if (t.getEffect() != null && !t.getEffect().isEmpty() && !t.getEffect().equals(taint.getEffect())) {
                continue;
            }
            if (t.getKey() == null || t.getKey().isEmpty()) {
                if ("Exists".equals(t.getOperator())) {
                    return true;
                }
                continue;
            }
            if (!t.getKey().equals(taint.getKey())) {
                continue;
            }
            if ("Exists".equals(t.getOperator())) {
                return true;
            }
            String want = t.getValue() == null ? "" : t.getValue();
            String have = taint.getValue() == null ? "" : taint.getValue();
            if (want.equals(have)) {
                return true;
            }
        }
        return false;
    }

    private static boolean requiredAffinityMatches(Pod pod, Node node, Map<String, String> labels) {
        if (pod.getSpec().getAffinity() == null || pod.getSpec().getAffinity().getNodeAffinity() == null
                || pod.getSpec().getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return true;
        }
        List<NodeSelectorTerm> terms = pod.getSpec().getAffinity().getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms();
        if (terms == null || terms.isEmpty()) {
            return false;
        }
        for (NodeSelectorTerm term : terms) {
            if (termMatches(term, node, labels)) {
                return true;
            }
        }
        return false;
    }

    private static boolean termMatches(NodeSelectorTerm term, Node node, Map<String, String> labels) {
        boolean any = false;
        if (term.getMatchExpressions() != null) {
            for (NodeSelectorRequirement r : term.getMatchExpressions()) {
                any = true;
                if (!requirementMatches(r, labels.get(r.getKey()))) {
                    return false;
                }
            }
        }
        if (term.getMatchFields() != null) {
            for (NodeSelectorRequirement r : term.getMatchFields()) {
                any = true;
                String value = "metadata.name".equals(r.getKey()) ? node.getMetadata().getName() : null;
                if (!requirementMatches(r, value)) {
                    return false;
                }
            }
        }
        return any;
    }

    private static boolean requirementMatches(NodeSelectorRequirement r, String value) {
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        switch (r.getOperator()) {
            case "In":
                return value != null && values.contains(value);
            case "NotIn":
                return value == null || !values.contains(value);
            case "Exists":
                return value != null;
            case "DoesNotExist":
                return value == null;
            case "Gt":
            case "Lt":
                if (value == null || values.size() != 1) {
                    return false;
                }
                try {
                    long have = Long.parseLong(value);
                    long want = Long.parseLong(values.get(0));
                    return r.getOperator().equals("Gt") ? have > want : have < want;
                } catch (NumberFormatException e) {
                    return false;
                }
            default:
                return false;
        }
    }
}
