package dev.kruisevertx.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.NodeTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateSpec;
import dev.kruisevertx.api.apps.v1alpha1.PodState;
import dev.kruisevertx.api.apps.v1alpha1.PreferredTopologyTerm;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the pod webhook adds to a pod created under a name with a recorded state (OpenKruise's createNodeAffinity):
 * each required key's recorded node label value merged into {@code nodeSelector}, and per preferred term one
 * preferred node-affinity term with {@code In [value]} for each of its keys that was recorded.
 */
public final class TopologyInjection {
    private TopologyInjection() {
    }

    /** The required labels and the preferred terms; both empty means nothing to inject. */
    public record Injection(Map<String, String> nodeSelector, List<PreferredSchedulingTerm> preferred) {
        public Injection {
            nodeSelector = Map.copyOf(nodeSelector);
            preferred = List.copyOf(preferred);
        }

        public boolean isEmpty() {
            return nodeSelector.isEmpty() && preferred.isEmpty();
        }
    }

    /**
     * The injection for a recorded state; empty when nothing was recorded or no recorded key is asked for. A
     * preferred term none of whose keys was recorded is left out (OpenKruise adds it with no expressions, which
     * matches no node and so changes nothing).
     */
    public static Optional<Injection> decide(PersistentPodStateSpec spec, PodState state) {
        if (state == null || state.labels().isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> selector = new LinkedHashMap<>();
        NodeTopologyTerm required = spec.getRequiredPersistentTopology();
        if (required != null) {
            for (String key : required.keys()) {
                String value = state.labels().get(key);
                if (value != null) {
                    selector.put(key, value);
                }
            }
        }
        List<PreferredSchedulingTerm> preferred = new ArrayList<>();
        for (PreferredTopologyTerm term : spec.getPreferredPersistentTopology() == null
                ? List.<PreferredTopologyTerm>of() : spec.getPreferredPersistentTopology()) {
            if (term == null) {
                continue;
            }
            List<NodeSelectorRequirement> expressions = new ArrayList<>();
            for (String key : term.preference().keys()) {
                String value = state.labels().get(key);
                if (value != null) {
                    expressions.add(new NodeSelectorRequirement(key, "In", List.of(value)));
                }
            }
            if (!expressions.isEmpty()) {
                NodeSelectorTerm t = new NodeSelectorTerm();
                t.setMatchExpressions(expressions);
                preferred.add(new PreferredSchedulingTerm(t, term.getWeight()));
            }
        }
        Injection injection = new Injection(selector, preferred);
        return injection.isEmpty() ? Optional.empty() : Optional.of(injection);
    }

    /**
     * Applies an injection to a pod (a private copy): the selector labels merged over the pod's own, the preferred
     * terms appended after the pod's own, and the annotation naming the PersistentPodState.
     */
    public static void apply(Pod pod, String ppsName, Injection injection) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(pod.getMetadata().getAnnotations());
        annotations.put(dev.kruisevertx.api.apps.v1alpha1.PersistentPodState.INJECTED_ANNOTATION, ppsName);
        pod.getMetadata().setAnnotations(annotations);
        if (!injection.nodeSelector().isEmpty()) {
            Map<String, String> selector = pod.getSpec().getNodeSelector() == null ? new LinkedHashMap<>()
                    : new LinkedHashMap<>(pod.getSpec().getNodeSelector());
            selector.putAll(injection.nodeSelector());
            pod.getSpec().setNodeSelector(selector);
        }
        if (!injection.preferred().isEmpty()) {
            Affinity affinity = pod.getSpec().getAffinity() == null ? new Affinity() : pod.getSpec().getAffinity();
            NodeAffinity node = affinity.getNodeAffinity() == null ? new NodeAffinity() : affinity.getNodeAffinity();
            List<PreferredSchedulingTerm> terms = node.getPreferredDuringSchedulingIgnoredDuringExecution() == null
                    ? new ArrayList<>() : new ArrayList<>(node.getPreferredDuringSchedulingIgnoredDuringExecution());
            terms.addAll(injection.preferred());
            node.setPreferredDuringSchedulingIgnoredDuringExecution(terms);
            affinity.setNodeAffinity(node);
            pod.getSpec().setAffinity(affinity);
        }
    }
}
