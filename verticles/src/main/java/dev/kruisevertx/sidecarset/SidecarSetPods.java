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
 * The pods a SidecarSet manages, as OpenKruise's {@code getMatchingPods}: of the pods it injected (the injected-list
 * annotation), those in a namespace its namespaceSelector selects (any without one), matching its selector, active
 * and carrying all its sidecars. Walks its pods: call it on a worker thread.
 */
final class SidecarSetPods {
    private SidecarSetPods() {
    }

    /**
     * @param candidates the pods naming the SidecarSet in their injected-list annotation ({@link InjectedPods})
     */
    static List<Pod> matched(SidecarSet set, List<Pod> candidates, CachedResource<Namespace> namespaces) {
        LabelSelector selector = set.getSpec().getSelector();
        if (selector == null || ((selector.getMatchLabels() == null || selector.getMatchLabels().isEmpty())
                && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty()))) {
            return List.of();
        }
        Predicate<Map<String, String>> matches = LabelSelectors.compile(selector);
        Predicate<Map<String, String>> nsMatches = set.getSpec().getNamespaceSelector() == null ? null
                : LabelSelectors.compile(set.getSpec().getNamespaceSelector());
        Map<String, Boolean> namespaceVerdicts = new java.util.HashMap<>();
        List<Pod> out = new ArrayList<>();
        String name = set.getMetadata().getName();
        for (Pod pod : candidates) {
            if (nsMatches != null && !namespaceVerdicts.computeIfAbsent(pod.getMetadata().getNamespace(), ns -> {
                Namespace n = namespaces.get(null, ns);
                return n != null && nsMatches.test(n.getMetadata().getLabels() == null ? Map.of()
                        : n.getMetadata().getLabels());
            })) {
                continue;
            }
            if (matches.test(pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels())
                    && Pods.isActive(pod) && SidecarPodState.injected(pod, name) && SidecarPodState.hasSidecars(pod, set)) {
                out.add(pod);
            }
        }
        return out;
    }
}
