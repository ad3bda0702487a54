package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The pods a SidecarSet manages, read from the cache as OpenKruise's {@code getMatchingPods}: in the namespaces its
 * namespaceSelector selects (all without one), matching its selector, active, injected by it (the injected-list
 * annotation) and carrying all its sidecars. Walks pods: call it on a worker thread.
 */
final class SidecarSetPods {
    private SidecarSetPods() {
    }

    static List<Pod> matched(SidecarSet set, CachedResource<Pod> pods, CachedResource<Namespace> namespaces) {
        LabelSelector selector = set.getSpec().getSelector();
        if (selector == null || ((selector.getMatchLabels() == null || selector.getMatchLabels().isEmpty())
                && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty()))) {
            return List.of();
        }
        Predicate<Map<String, String>> matches = LabelSelectors.compile(selector);
        List<Pod> candidates;
        if (set.getSpec().getNamespaceSelector() != null) {
            Predicate<Map<String, String>> nsMatches = LabelSelectors.compile(set.getSpec().getNamespaceSelector());
            candidates = new ArrayList<>();
            for (Namespace ns : namespaces.list()) {
                if (nsMatches.test(ns.getMetadata().getLabels() == null ? Map.of() : ns.getMetadata().getLabels())) {
                    candidates.addAll(pods.list(ns.getMetadata().getName()));
                }
            }
        } else {
            candidates = pods.list();
        }
        List<Pod> out = new ArrayList<>();
        String name = set.getMetadata().getName();
        for (Pod pod : candidates) {
            if (matches.test(pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels())
                    && Pods.isActive(pod) && SidecarPodState.injected(pod, name) && SidecarPodState.hasSidecars(pod, set)) {
                out.add(pod);
            }
        }
        return out;
    }
}
