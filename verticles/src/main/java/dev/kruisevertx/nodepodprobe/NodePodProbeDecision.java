package dev.kruisevertx.nodepodprobe;

import dev.kruisevertx.api.apps.v1alpha1.ContainerProbeState;
import dev.kruisevertx.api.apps.v1alpha1.NodePodProbe;
import dev.kruisevertx.api.apps.v1alpha1.NodePodProbeSpec;
import dev.kruisevertx.api.apps.v1alpha1.PodContainerProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeStatus;
import dev.kruisevertx.api.apps.v1alpha1.ProbeMarkerPolicy;
import dev.kruisevertx.api.apps.v1alpha1.ProbeState;
import dev.kruisevertx.podprobemarker.NodePodProbeSpecs;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The nodepodprobe controller's decision, as OpenKruise v1.9.0's: a NodePodProbe exists for every node and goes with
 * it; entries of pods that are gone, finished, terminating or replaced (another uid) are dropped; each reported probe
 * state of a remaining pod becomes the marker's pod condition (True for Succeeded, False otherwise; the first probe
 * of a condition type wins) and its markerPolicy: the labels/annotations of the policy matching the state are set,
 * those of the other policy removed. A marker that is gone or being deleted is skipped. Only real changes are
 * planned (a condition is rewritten when its status or message changed). Pure.
 */
public final class NodePodProbeDecision {
    private NodePodProbeDecision() {
    }

    /**
     * @param nodeName the node (and NodePodProbe) name
     * @param npp      the cached NodePodProbe, null when there is none
     * @param node     the cached node, null when there is none
     * @param pods     pod by namespace and name, null when absent
     * @param markers  PodProbeMarker by namespace and name, null when absent
     */
    public static NodePodProbePlan decide(String nodeName, NodePodProbe npp, Node node,
                                          BiFunction<String, String, Pod> pods,
                                          BiFunction<String, String, PodProbeMarker> markers) {
        boolean nodeGone = node == null || node.getMetadata().getDeletionTimestamp() != null;
        if (npp == null) {
            return nodeGone ? new NodePodProbePlan(false, false, null, List.of(), "no node, no NodePodProbe")
                    : new NodePodProbePlan(true, false, null, List.of(), "node " + nodeName + " has no NodePodProbe");
        }
        if (nodeGone) {
            return new NodePodProbePlan(false, true, null, List.of(), "node " + nodeName + " is gone");
        }
        Map<String, Pod> matched = new LinkedHashMap<>();
        List<PodProbe> kept = new ArrayList<>();
        for (PodProbe p : npp.podProbes()) {
            Pod pod = pods.apply(p.getNamespace(), p.getName());
            if (pod == null || !Pods.isActive(pod) || !Objects.equals(pod.getMetadata().getUid(), p.getUid())) {
                continue;
            }
            matched.put(p.getUid(), pod);
            kept.add(p);
        }
        NodePodProbeSpec spec = null;
        if (kept.size() != npp.podProbes().size()) {
            spec = new NodePodProbeSpec();
            spec.setPodProbes(kept.isEmpty() ? null : kept);
        }
        List<NodePodProbePlan.PodUpdate> updates = new ArrayList<>();
        for (PodProbeStatus status : npp.podProbeStatuses()) {
            Pod pod = matched.get(status.getUid());
            if (pod != null) {
                podUpdate(pod, status, markers).ifPresent(updates::add);
            }
        }
        String reason = npp.podProbes().size() - kept.size() + " gone pods, " + updates.size() + " pods to update";
        return new NodePodProbePlan(false, false, spec, updates, reason);
    }

    /** The changes one pod needs from its probe states; empty when it already shows them. */
    static Optional<NodePodProbePlan.PodUpdate> podUpdate(Pod pod, PodProbeStatus status,
                                                           BiFunction<String, String, PodProbeMarker> markers) {
        List<PodCondition> conditions = new ArrayList<>();
        Set<String> conditionTypes = new HashSet<>();
        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, String> annotations = new LinkedHashMap<>();
        for (ContainerProbeState state : status.getProbeStates() == null ? List.<ContainerProbeState>of()
                : status.getProbeStates()) {
            if (state.getState() == null || state.getState().isEmpty() || state.getName() == null) {
                continue;
            }
            int sep = state.getName().indexOf(NodePodProbeSpecs.SEPARATOR);
            if (sep < 0) {
                continue;
            }
            String markerName = state.getName().substring(0, sep);
            String probeName = state.getName().substring(sep + 1);
            PodProbeMarker ppm = markers.apply(pod.getMetadata().getNamespace(), markerName);
            if (ppm == null || ppm.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            PodContainerProbe probe = ppm.probes().stream().filter(p -> probeName.equals(p.getName())).findFirst()
                    .orElse(null);
            if (probe == null) {
                continue;
            }
            String type = probe.getPodConditionType();
            if (type != null && !type.isEmpty() && conditionTypes.add(type)) {
                conditions.add(new PodConditionBuilder().withType(type)
                        .withStatus(ProbeState.SUCCEEDED.value().equals(state.getState()) ? "True" : "False")
                        .withLastProbeTime(state.getLastProbeTime())
                        .withLastTransitionTime(state.getLastTransitionTime())
                        .withMessage(state.getMessage()).build());
            }
            List<ProbeMarkerPolicy> policies = probe.getMarkerPolicy() == null ? List.of() : probe.getMarkerPolicy();
            ProbeMarkerPolicy matchedPolicy = null;
            ProbeMarkerPolicy opposite = null;
            for (ProbeMarkerPolicy policy : policies) {
                if (Objects.equals(policy.getState(), state.getState())) {
                    matchedPolicy = policy;
                } else {
                    opposite = policy;
                }
            }
            if (opposite != null) {
                removeAll(opposite.getLabels(), labels);
                removeAll(opposite.getAnnotations(), annotations);
            }
            if (matchedPolicy != null) {
                putAll(matchedPolicy.getLabels(), labels);
                putAll(matchedPolicy.getAnnotations(), annotations);
            }
        }
        List<PodCondition> changedConditions = new ArrayList<>();
        for (PodCondition c : conditions) {
            Optional<PodCondition> current = Pods.condition(pod, c.getType());
            if (current.isEmpty() || !Objects.equals(current.get().getStatus(), c.getStatus())
                    || !Objects.equals(nz(current.get().getMessage()), nz(c.getMessage()))) {
                changedConditions.add(c);
            }
        }
        Map<String, String> changedLabels = changes(labels, Pods.labels(pod));
        Map<String, String> changedAnnotations = changes(annotations, Pods.annotations(pod));
        if (changedConditions.isEmpty() && changedLabels.isEmpty() && changedAnnotations.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new NodePodProbePlan.PodUpdate(pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(), pod.getMetadata().getUid(), changedConditions, changedLabels,
                changedAnnotations));
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static void removeAll(Map<String, String> keys, Map<String, String> into) {
        if (keys != null) {
            keys.keySet().forEach(k -> into.put(k, null));
        }
    }

    private static void putAll(Map<String, String> values, Map<String, String> into) {
        if (values != null) {
            into.putAll(values);
        }
    }

    /** The wanted entries that differ from the pod's (a null value: remove a key the pod has). */
    private static Map<String, String> changes(Map<String, String> wanted, Map<String, String> current) {
        Map<String, String> out = new LinkedHashMap<>();
        wanted.forEach((k, v) -> {
            if (v == null ? current.containsKey(k) : !v.equals(current.get(k))) {
                out.put(k, v);
            }
        });
        return out;
    }
}
