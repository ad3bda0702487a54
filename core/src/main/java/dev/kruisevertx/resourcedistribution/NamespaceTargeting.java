package dev.kruisevertx.resourcedistribution;

import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionTargets;
import dev.kruisevertx.podutil.LabelSelectors;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespace;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The namespaces a ResourceDistribution targets, as OpenKruise v1.9.0 computes them: every existing namespace when
 * {@code allNamespaces}; otherwise the listed {@code includedNamespaces} (whether they exist or not: a missing one is
 * reported as {@code NamespaceNotExists}) plus the existing namespaces the label selector matches (an empty selector
 * matches none); the {@code excludedNamespaces} are removed last. Every other existing namespace is unmatched: a copy
 * the distribution owns there is removed. No namespace is forbidden: OpenKruise v1.9.0's API comment mentions
 * kube-system and kube-public, but its controller distributes to them like any other.
 */
public final class NamespaceTargeting {
    private NamespaceTargeting() {
    }

    /** Matched and unmatched namespace names, each sorted. */
    public record Targets(List<String> matched, List<String> unmatched) {
        public Targets {
            matched = List.copyOf(matched);
            unmatched = List.copyOf(unmatched);
        }
    }

    /**
     * @throws IllegalArgumentException when the label selector cannot be read (the webhook refuses such a spec)
     */
    public static Targets of(ResourceDistributionTargets targets, Collection<Namespace> namespaces) {
        TreeSet<String> matched = new TreeSet<>();
        TreeSet<String> existing = new TreeSet<>();
        Predicate<Map<String, String>> selector = selector(targets.getNamespaceLabelSelector());
        for (Namespace ns : namespaces) {
            String name = ns.getMetadata().getName();
            existing.add(name);
            if (targets.all() || selector.test(ns.getMetadata().getLabels())) {
                matched.add(name);
            }
        }
        if (!targets.all()) {
            matched.addAll(targets.included());
        }
        matched.removeAll(targets.excluded());
        existing.removeAll(matched);
        return new Targets(List.copyOf(matched), List.copyOf(existing));
    }

    /**
     * Whether one namespace is a target: for event mapping, O(size of the lists).
     *
     * @return false also when the selector cannot be read
     */
    public static boolean matches(ResourceDistributionTargets targets, Namespace ns) {
        String name = ns.getMetadata().getName();
        if (targets.excluded().contains(name)) {
            return false;
        }
        if (targets.all() || targets.included().contains(name)) {
            return true;
        }
        try {
            return selector(targets.getNamespaceLabelSelector()).test(ns.getMetadata().getLabels());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** An empty or absent selector selects nothing here (OpenKruise skips it), unlike a pod selector. */
    private static Predicate<Map<String, String>> selector(LabelSelector selector) {
        boolean empty = selector == null || ((selector.getMatchLabels() == null || selector.getMatchLabels().isEmpty())
                && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty()));
        return empty ? labels -> false : LabelSelectors.compile(selector);
    }
}
