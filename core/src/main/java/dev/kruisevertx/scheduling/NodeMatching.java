package dev.kruisevertx.scheduling;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a pod spec may run on a node, as kube-scheduler's filters and scores judge it: nodeSelector, required and
 * preferred node affinity (matchExpressions on labels, matchFields on the name) and taints against tolerations.
 * Pure functions over a {@link PodSpec}, so a controller can ask about a template before any pod exists (DaemonSet
 * and BroadcastJob node eligibility) and the simulated scheduler asks the same questions about real pods.
 */
public final class NodeMatching {
    private NodeMatching() {
    }

    public static Map<String, String> labels(Node node) {
        return node.getMetadata() == null || node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
    }

    public static boolean isReady(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return false;
        }
        return node.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** The pod's nodeSelector and required node affinity both hold for {@code node}. */
    public static boolean matchesNodeSelectorAndAffinity(PodSpec spec, Node node) {
        Map<String, String> labels = labels(node);
        Map<String, String> selector = spec.getNodeSelector();
        if (selector != null) {
            for (Map.Entry<String, String> e : selector.entrySet()) {
                if (e.getValue() == null || !e.getValue().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        return requiredAffinityMatches(spec, node);
    }

    /** The first NoSchedule or NoExecute taint of {@code node} that the spec does not tolerate. */
    public static Optional<Taint> untoleratedTaint(PodSpec spec, Node node) {
        if (node.getSpec() == null || node.getSpec().getTaints() == null) {
            return Optional.empty();
        }
        for (Taint t : node.getSpec().getTaints()) {
            if (("NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect())) && !tolerates(spec.getTolerations(), t)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** How many PreferNoSchedule taints of {@code node} the spec does not tolerate (TaintToleration's raw score). */
    public static int untoleratedPreferNoSchedule(PodSpec spec, Node node) {
        if (node.getSpec() == null || node.getSpec().getTaints() == null) {
            return 0;
        }
        int n = 0;
        for (Taint t : node.getSpec().getTaints()) {
            if ("PreferNoSchedule".equals(t.getEffect()) && !tolerates(spec.getTolerations(), t)) {
                n++;
            }
        }
        return n;
    }

    /** The sum of the weights of the preferred node affinity terms {@code node} matches (NodeAffinity's raw score). */
    public static long preferredAffinityWeight(PodSpec spec, Node node) {
        if (spec.getAffinity() == null || spec.getAffinity().getNodeAffinity() == null
                || spec.getAffinity().getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution() == null) {
            return 0;
        }
        long sum = 0;
        for (PreferredSchedulingTerm t : spec.getAffinity().getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution()) {
            if (t.getPreference() != null && t.getWeight() != null && t.getWeight() != 0 && termMatches(t.getPreference(), node)) {
                sum += t.getWeight();
            }
        }
        return sum;
    }

    /** Toleration matching as the API defines it: an empty key with Exists tolerates everything of its effect. */
    public static boolean tolerates(List<Toleration> tolerations, Taint taint) {
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

    /** One node selector term: every requirement holds, and an empty term matches nothing (as upstream). */
    public static boolean termMatches(NodeSelectorTerm term, Node node) {
        Map<String, String> labels = labels(node);
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
                String value = "metadata.name".equals(r.getKey()) && node.getMetadata() != null ? node.getMetadata().getName() : null;
                if (!requirementMatches(r, value)) {
                    return false;
                }
            }
        }
        return any;
    }

    private static boolean requiredAffinityMatches(PodSpec spec, Node node) {
        if (spec.getAffinity() == null || spec.getAffinity().getNodeAffinity() == null
                || spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return true;
        }
        List<NodeSelectorTerm> terms = spec.getAffinity().getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms();
        if (terms == null || terms.isEmpty()) {
            return false;
        }
        for (NodeSelectorTerm term : terms) {
            if (termMatches(term, node)) {
                return true;
            }
        }
        return false;
    }

    private static boolean requirementMatches(NodeSelectorRequirement r, String value) {
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        if (r.getOperator() == null) {
            return false;
        }
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
