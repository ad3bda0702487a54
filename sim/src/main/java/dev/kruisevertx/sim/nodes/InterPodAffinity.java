package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.podutil.LabelSelectors;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * kube-scheduler's InterPodAffinity plugin for one pod over a {@link ClusterSnapshot}: the filter (the pod's required
 * affinity and anti-affinity, and the required anti-affinity of pods already placed) and the raw score (preferred
 * terms of both sides, weighted per matching pod). A term selects pods by {@code labelSelector} in
 * {@code namespaces} plus the namespaces {@code namespaceSelector} matches (its own pod's namespace when both are
 * empty), within the topology domain named by {@code topologyKey}.
 */
final class InterPodAffinity {
    static final String AFFINITY_NOT_MATCH = "node(s) didn't match pod affinity rules";
    static final String ANTI_AFFINITY_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";
    static final String EXISTING_ANTI_AFFINITY_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules";

    /** A topology domain: a label key and its value. */
    private record Domain(String key, String value) {
    }

    private final Pod pod;
    private final ClusterSnapshot snapshot;
    private final List<PodAffinityTerm> affinity;
    private final List<PodAffinityTerm> antiAffinity;
    /** Per required affinity term, the domains that hold a pod it selects. */
    private final List<Set<Domain>> affinityDomains = new ArrayList<>();
    private final Set<Domain> antiAffinityDomains = new HashSet<>();
    /** Domains where a placed pod's required anti-affinity selects this pod. */
    private final Set<Domain> existingAntiDomains = new HashSet<>();
    /** Preferred terms of both sides, summed per domain (positive for affinity, negative for anti-affinity). */
    private final Map<Domain, Long> preferred = new HashMap<>();
    private boolean anyAffinityMatch;

    private InterPodAffinity(Pod pod, ClusterSnapshot snapshot) {
        this.pod = pod;
        this.snapshot = snapshot;
        Affinity a = pod.getSpec().getAffinity();
        this.affinity = a == null || a.getPodAffinity() == null || a.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null
                ? List.of() : a.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
        this.antiAffinity = a == null || a.getPodAntiAffinity() == null || a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null
                ? List.of() : a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
        affinity.forEach(t -> affinityDomains.add(new HashSet<>()));
    }

    static InterPodAffinity of(Pod pod, ClusterSnapshot snapshot) {
        InterPodAffinity p = new InterPodAffinity(pod, snapshot);
        p.index();
        return p;
    }

    private void index() {
        List<WeightedPodAffinityTerm> preferredAffinity = preferredTerms(pod, true);
        List<WeightedPodAffinityTerm> preferredAnti = preferredTerms(pod, false);
        for (Node node : snapshot.nodes()) {
            Map<String, String> labels = NodeFit.labels(node);
            for (Pod other : snapshot.podsOn(node.getMetadata().getName())) {
                if (other.getMetadata().getUid() != null && other.getMetadata().getUid().equals(pod.getMetadata().getUid())) {
                    continue;
                }
                for (int i = 0; i < affinity.size(); i++) {
                    PodAffinityTerm t = affinity.get(i);
                    if (selects(t, pod, other)) {
                        anyAffinityMatch = true;
                        domain(t.getTopologyKey(), labels).ifPresent(affinityDomains.get(i)::add);
                    }
                }
                for (PodAffinityTerm t : antiAffinity) {
                    if (selects(t, pod, other)) {
                        domain(t.getTopologyKey(), labels).ifPresent(antiAffinityDomains::add);
                    }
                }
                for (PodAffinityTerm t : requiredAnti(other)) {
                    if (selects(t, other, pod)) {
                        domain(t.getTopologyKey(), labels).ifPresent(existingAntiDomains::add);
                    }
                }
                for (WeightedPodAffinityTerm w : preferredAffinity) {
                    addPreferred(w, pod, other, labels, 1);
                }
                for (WeightedPodAffinityTerm w : preferredAnti) {
                    addPreferred(w, pod, other, labels, -1);
                }
                // The placed pod's own preferences about this pod count too (kube-scheduler scores both sides).
                for (WeightedPodAffinityTerm w : preferredTerms(other, true)) {
                    addPreferred(w, other, pod, labels, 1);
                }
                for (WeightedPodAffinityTerm w : preferredTerms(other, false)) {
                    addPreferred(w, other, pod, labels, -1);
                }
            }
        }
    }

    private void addPreferred(WeightedPodAffinityTerm w, Pod owner, Pod candidate, Map<String, String> labels, int sign) {
        if (w.getPodAffinityTerm() == null || w.getWeight() == null || !selects(w.getPodAffinityTerm(), owner, candidate)) {
            return;
        }
        domain(w.getPodAffinityTerm().getTopologyKey(), labels)
                .ifPresent(d -> preferred.merge(d, (long) sign * w.getWeight(), Long::sum));
    }

    /** The filter's reason to refuse {@code node}, in the scheduler's words, or empty. */
    Optional<String> reject(Node node) {
        Map<String, String> labels = NodeFit.labels(node);
        if (!affinity.isEmpty()) {
            boolean all = true;
            for (int i = 0; i < affinity.size(); i++) {
                Optional<Domain> d = domain(affinity.get(i).getTopologyKey(), labels);
                if (d.isEmpty() || !affinityDomains.get(i).contains(d.get())) {
                    all = false;
                }
            }
            // The first pod of a group that wants to be with its own kind: nothing matches anywhere yet, and the pod
            // matches its own terms, so it may go to any node that has the topology labels.
            boolean firstOfItsKind = !anyAffinityMatch && affinity.stream().allMatch(t -> selects(t, pod, pod))
                    && affinity.stream().allMatch(t -> labels.containsKey(t.getTopologyKey()));
            if (!all && !firstOfItsKind) {
                return Optional.of(AFFINITY_NOT_MATCH);
            }
        }
        for (PodAffinityTerm t : antiAffinity) {
            Optional<Domain> d = domain(t.getTopologyKey(), labels);
            if (d.isPresent() && antiAffinityDomains.contains(d.get())) {
                return Optional.of(ANTI_AFFINITY_NOT_MATCH);
            }
        }
        for (Map.Entry<String, String> e : labels.entrySet()) {
            if (existingAntiDomains.contains(new Domain(e.getKey(), e.getValue()))) {
                return Optional.of(EXISTING_ANTI_AFFINITY_NOT_MATCH);
            }
        }
        return Optional.empty();
    }

    /** The raw score: the summed weights of the preferred terms satisfied by placing the pod on {@code node}. */
    long score(Node node) {
        if (preferred.isEmpty()) {
            return 0;
        }
        long sum = 0;
        for (Map.Entry<String, String> e : NodeFit.labels(node).entrySet()) {
            sum += preferred.getOrDefault(new Domain(e.getKey(), e.getValue()), 0L);
        }
        return sum;
    }

    private static Optional<Domain> domain(String key, Map<String, String> labels) {
        if (key == null || key.isEmpty() || !labels.containsKey(key)) {
            return Optional.empty();
        }
        return Optional.of(new Domain(key, labels.get(key)));
    }

    /** Whether {@code owner}'s term selects {@code candidate}: namespace, then labels. */
    private boolean selects(PodAffinityTerm term, Pod owner, Pod candidate) {
        if (!namespaceSelected(term, owner, candidate.getMetadata().getNamespace())) {
            return false;
        }
        return LabelSelectors.matches(term.getLabelSelector(), candidate.getMetadata().getLabels());
    }

    private boolean namespaceSelected(PodAffinityTerm term, Pod owner, String namespace) {
        List<String> names = term.getNamespaces() == null ? List.of() : term.getNamespaces();
        if (names.isEmpty() && term.getNamespaceSelector() == null) {
            return namespace != null && namespace.equals(owner.getMetadata().getNamespace());
        }
        if (names.contains(namespace)) {
            return true;
        }
        return term.getNamespaceSelector() != null
                && LabelSelectors.matches(term.getNamespaceSelector(), snapshot.namespaceLabels().apply(namespace));
    }

    private static List<PodAffinityTerm> requiredAnti(Pod p) {
        Affinity a = p.getSpec().getAffinity();
        return a == null || a.getPodAntiAffinity() == null || a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null
                ? List.of() : a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
    }

    private static List<WeightedPodAffinityTerm> preferredTerms(Pod p, boolean affinity) {
        Affinity a = p.getSpec().getAffinity();
        if (a == null) {
            return List.of();
        }
        List<WeightedPodAffinityTerm> out = affinity
                ? (a.getPodAffinity() == null ? null : a.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution())
                : (a.getPodAntiAffinity() == null ? null : a.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution());
        return out == null ? List.of() : out;
    }
}
