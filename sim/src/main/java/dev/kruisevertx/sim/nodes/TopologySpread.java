package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.podutil.LabelSelectors;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * kube-scheduler's PodTopologySpread plugin for one pod over a {@link ClusterSnapshot}. Pods the constraint's
 * selector matches (its {@code labelSelector} plus {@code matchLabelKeys}; same namespace, not terminating) are
 * counted per domain over the eligible nodes: those that have every constraint's topology key, match the pod's node
 * affinity and selector ({@code nodeAffinityPolicy: Honor}, the default) and, with {@code nodeTaintsPolicy: Honor}
 * (default Ignore), whose taints the pod tolerates. A node fits a {@code DoNotSchedule} constraint when its domain's
 * count, plus one if the pod matches the selector itself, exceeds the smallest domain's count by at most
 * {@code maxSkew}; the smallest count is 0 while fewer than {@code minDomains} domains exist. {@code ScheduleAnyway}
 * constraints only score: the fewer matching pods in a node's domain, the better.
 */
final class TopologySpread {
    static final String CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
    static final String MISSING_LABEL = CONSTRAINTS_NOT_MATCH + " (missing required label)";

    private record Counted(TopologySpreadConstraint constraint, boolean selfMatch, Map<String, Integer> perDomain) {
        int min() {
            Integer minDomains = constraint.getMinDomains();
            if (minDomains != null && perDomain.size() < minDomains) {
                return 0;
            }
            return perDomain.values().stream().min(Integer::compare).orElse(0);
        }
    }

    private final List<Counted> hard = new ArrayList<>();
    private final List<Counted> soft = new ArrayList<>();

    static TopologySpread of(Pod pod, ClusterSnapshot snapshot) {
        TopologySpread s = new TopologySpread();
        List<TopologySpreadConstraint> constraints = pod.getSpec().getTopologySpreadConstraints();
        if (constraints == null || constraints.isEmpty()) {
            return s;
        }
        for (boolean doNotSchedule : new boolean[]{true, false}) {
            List<TopologySpreadConstraint> group = constraints.stream()
                    .filter(c -> doNotSchedule == !"ScheduleAnyway".equals(c.getWhenUnsatisfiable())).toList();
            (doNotSchedule ? s.hard : s.soft).addAll(count(pod, group, snapshot));
        }
        return s;
    }

    private static List<Counted> count(Pod pod, List<TopologySpreadConstraint> group, ClusterSnapshot snapshot) {
        List<Counted> out = new ArrayList<>();
        for (TopologySpreadConstraint c : group) {
            Predicate<Map<String, String>> selector = LabelSelectors.compile(selector(c, pod));
            Map<String, Integer> perDomain = new HashMap<>();
            for (Node node : snapshot.nodes()) {
                Map<String, String> labels = NodeFit.labels(node);
                if (!group.stream().allMatch(x -> labels.containsKey(x.getTopologyKey())) || !eligible(pod, c, node)) {
                    continue;
                }
                int matching = 0;
                for (Pod p : snapshot.podsOn(node.getMetadata().getName())) {
                    if (p.getMetadata().getDeletionTimestamp() == null
                            && pod.getMetadata().getNamespace().equals(p.getMetadata().getNamespace())
                            && !p.getMetadata().getUid().equals(pod.getMetadata().getUid())
                            && selector.test(p.getMetadata().getLabels())) {
                        matching++;
                    }
                }
                perDomain.merge(labels.get(c.getTopologyKey()), matching, Integer::sum);
            }
            out.add(new Counted(c, selector.test(pod.getMetadata().getLabels()), perDomain));
        }
        return out;
    }

    private static boolean eligible(Pod pod, TopologySpreadConstraint c, Node node) {
        if (!"Ignore".equals(c.getNodeAffinityPolicy()) && !NodeFit.matchesNodeSelectorAndAffinity(pod, node)) {
            return false;
        }
        return !"Honor".equals(c.getNodeTaintsPolicy()) || NodeFit.untoleratedTaint(pod, node).isEmpty();
    }

    /** The constraint's selector with {@code matchLabelKeys} added as {@code key In (the pod's value)}. */
    private static LabelSelector selector(TopologySpreadConstraint c, Pod pod) {
        if (c.getLabelSelector() == null || c.getMatchLabelKeys() == null || c.getMatchLabelKeys().isEmpty()) {
            return c.getLabelSelector();
        }
        LabelSelectorBuilder b = new LabelSelectorBuilder(c.getLabelSelector());
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        for (String key : c.getMatchLabelKeys()) {
            if (labels.containsKey(key)) {
                b.addNewMatchExpression().withKey(key).withOperator("In").withValues(labels.get(key)).endMatchExpression();
            }
        }
        return b.build();
    }

    Optional<String> reject(Node node) {
        Map<String, String> labels = NodeFit.labels(node);
        for (Counted c : hard) {
            String value = labels.get(c.constraint().getTopologyKey());
            if (value == null) {
                return Optional.of(MISSING_LABEL);
            }
            int skew = c.perDomain().getOrDefault(value, 0) + (c.selfMatch() ? 1 : 0) - c.min();
            int maxSkew = c.constraint().getMaxSkew() == null ? 1 : c.constraint().getMaxSkew();
            if (skew > maxSkew) {
                return Optional.of(CONSTRAINTS_NOT_MATCH);
            }
        }
        return Optional.empty();
    }

    /** Raw score, lower is better: matching pods in the node's domain of each ScheduleAnyway constraint. */
    long crowding(Node node) {
        long sum = 0;
        Map<String, String> labels = NodeFit.labels(node);
        for (Counted c : soft) {
            String value = labels.get(c.constraint().getTopologyKey());
            if (value != null) {
                sum += c.perDomain().getOrDefault(value, 0);
            }
        }
        return sum;
    }

    boolean scores() {
        return !soft.isEmpty();
    }
}
