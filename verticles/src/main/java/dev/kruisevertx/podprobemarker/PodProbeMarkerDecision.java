package dev.kruisevertx.podprobemarker;

import dev.kruisevertx.api.apps.v1alpha1.NodePodProbe;
import dev.kruisevertx.api.apps.v1alpha1.NodePodProbeSpec;
import dev.kruisevertx.api.apps.v1alpha1.PodContainerProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
import dev.kruisevertx.api.apps.v1alpha1.ProbeMarkerPolicy;
import dev.kruisevertx.api.apps.v1alpha1.ProbeState;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The podprobemarker controller's decision, as OpenKruise v1.9.0's: the marker's pods (active, Initialized, on a
 * node that exists) split into normal pods, whose probes go into their node's NodePodProbe, and pods on
 * virtual-kubelet nodes, which are marked from their own pod condition when EnablePodProbeMarkerOnServerless is on.
 * A deleted marker takes its probes out of every NodePodProbe before its finalizer goes. Pure.
 */
public final class PodProbeMarkerDecision {
    private PodProbeMarkerDecision() {
    }

    /**
     * @param ppm            the marker (cached)
     * @param namespacePods  the pods of its namespace (cached)
     * @param nodes          node by name, null when absent
     * @param npps           every NodePodProbe (cached)
     * @param serverlessGate EnablePodProbeMarkerOnServerless
     */
    public static PodProbeMarkerPlan decide(PodProbeMarker ppm, Collection<Pod> namespacePods,
                                            Function<String, Node> nodes, Collection<NodePodProbe> npps,
                                            boolean serverlessGate) {
        String ns = ppm.getMetadata().getNamespace();
        String name = ppm.getMetadata().getName();
        boolean hasFinalizer = ppm.getMetadata().getFinalizers() != null
                && ppm.getMetadata().getFinalizers().contains(PodProbeMarker.FINALIZER);
        Map<String, NodePodProbe> nppByName = new LinkedHashMap<>();
        npps.forEach(n -> nppByName.put(n.getMetadata().getName(), n));

        if (ppm.getMetadata().getDeletionTimestamp() != null) {
            if (!hasFinalizer) {
                return empty("being deleted without our finalizer");
            }
            List<PodProbeMarkerPlan.NodeWrite> writes = new ArrayList<>();
            for (NodePodProbe npp : nppByName.values()) {
                if (NodePodProbeSpecs.hasMarker(npp.getSpec(), ns, name)) {
                    writes.add(new PodProbeMarkerPlan.NodeWrite(npp.getMetadata().getName(), false,
                            npp.getMetadata().getResourceVersion(),
                            NodePodProbeSpecs.withoutMarker(npp.getSpec(), ns, name)));
                }
            }
            return new PodProbeMarkerPlan(false, true, writes, List.of(), null,
                    "deleted: probes removed from " + writes.size() + " NodePodProbes, then the finalizer");
        }

        Map<String, List<Pod>> normalByNode = new TreeMap<>();
        List<Pod> serverless = new ArrayList<>();
        if (ppm.spec().getSelector() != null && !isEmptySelector(ppm)) {
            for (Pod pod : namespacePods) {
                if (!LabelSelectors.matches(ppm.spec().getSelector(), Pods.labels(pod)) || !Pods.isActive(pod)
                        || !Pods.conditionTrue(pod, "Initialized") || !Pods.isAssigned(pod)) {
                    continue;
                }
                Node node = nodes.apply(pod.getSpec().getNodeName());
                if (node == null) {
                    continue;
                }
                if (PodProbeMarker.VIRTUAL_KUBELET_VALUE.equals(Pods.label(node, PodProbeMarker.VIRTUAL_KUBELET_LABEL))) {
                    serverless.add(pod);
                } else {
                    normalByNode.computeIfAbsent(pod.getSpec().getNodeName(), k -> new ArrayList<>()).add(pod);
                }
            }
        }

        List<PodProbeMarkerPlan.NodeWrite> writes = new ArrayList<>();
        normalByNode.forEach((nodeName, pods) -> {
            NodePodProbe npp = nppByName.get(nodeName);
            NodePodProbeSpec current = npp == null ? null : npp.getSpec();
            NodePodProbeSpec wanted = NodePodProbeSpecs.withMarker(current, ppm, pods);
            if (npp == null) {
                writes.add(new PodProbeMarkerPlan.NodeWrite(nodeName, true, null, wanted));
            } else if (!NodePodProbeSpecs.same(current, wanted)) {
                writes.add(new PodProbeMarkerPlan.NodeWrite(nodeName, false, npp.getMetadata().getResourceVersion(),
                        wanted));
            }
        });

        List<PodProbeMarkerPlan.PodMarks> marks = new ArrayList<>();
        if (serverlessGate) {
            Map<String, List<ProbeMarkerPolicy>> markers = new LinkedHashMap<>();
            for (PodContainerProbe p : ppm.probes()) {
                if (p.getPodConditionType() != null && !p.getPodConditionType().isEmpty()
                        && p.getMarkerPolicy() != null && !p.getMarkerPolicy().isEmpty()) {
                    markers.put(p.getPodConditionType(), p.getMarkerPolicy());
                }
            }
            if (!markers.isEmpty()) {
                for (Pod pod : serverless) {
                    serverlessMarks(pod, markers).ifPresent(marks::add);
                }
            }
        }

        long matched = normalByNode.values().stream().mapToLong(List::size).sum() + serverless.size();
        Long generation = ppm.getMetadata().getGeneration();
        long gen = generation == null ? 0 : generation;
        PodProbeMarkerPlan.Status status = null;
        if (ppm.getStatus() == null || !Objects.equals(ppm.getStatus().getObservedGeneration(), gen)
                || !Objects.equals(nz(ppm.getStatus().getMatchedPods()), matched)) {
            status = new PodProbeMarkerPlan.Status(gen, matched);
        }
        String reason = matched + " matched pods on " + normalByNode.size() + " nodes, " + serverless.size()
                + " serverless; " + writes.size() + " NodePodProbes to write";
        List<dev.kruisevertx.controller.reason.BlockReason> holds = matched > 0 ? List.of()
                : List.of(dev.kruisevertx.controller.reason.Reasons.noMatchingPods("spec.selector",
                        "active, initialized and scheduled"));
        return new PodProbeMarkerPlan(!hasFinalizer, false, writes, marks, status, reason, holds);
    }

    private static boolean isEmptySelector(PodProbeMarker ppm) {
        var s = ppm.spec().getSelector();
        return (s.getMatchLabels() == null || s.getMatchLabels().isEmpty())
                && (s.getMatchExpressions() == null || s.getMatchExpressions().isEmpty());
    }

    private static long nz(Long v) {
        return v == null ? 0 : v;
    }

    /** The labels and annotations a serverless pod lacks, by its condition of each marked type. */
    static Optional<PodProbeMarkerPlan.PodMarks> serverlessMarks(Pod pod, Map<String, List<ProbeMarkerPolicy>> markers) {
        Map<String, String> labels = new TreeMap<>();
        Map<String, String> annotations = new TreeMap<>();
        Map<String, String> podLabels = Pods.labels(pod);
        Map<String, String> podAnnotations = Pods.annotations(pod);
        markers.forEach((type, policies) -> {
            Optional<PodCondition> condition = Pods.condition(pod, type);
            if (condition.isEmpty()) {
                return;
            }
            for (ProbeMarkerPolicy policy : policies) {
                Optional<ProbeState> state = policy.stateValue();
                if (state.isEmpty() || !state.get().matchesConditionStatus(condition.get().getStatus())) {
                    continue;
                }
                if (policy.getLabels() != null) {
                    policy.getLabels().forEach((k, v) -> {
                        if (!Objects.equals(podLabels.get(k), v)) {
                            labels.put(k, v);
                        }
                    });
                }
                if (policy.getAnnotations() != null) {
                    policy.getAnnotations().forEach((k, v) -> {
                        if (!Objects.equals(podAnnotations.get(k), v)) {
                            annotations.put(k, v);
                        }
                    });
                }
            }
        });
        if (labels.isEmpty() && annotations.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new PodProbeMarkerPlan.PodMarks(pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(), labels, annotations));
    }

    private static PodProbeMarkerPlan empty(String reason) {
        return new PodProbeMarkerPlan(false, false, List.of(), List.of(), null, reason);
    }
}
