package dev.kruisevertx.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.NodeTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodAnnotation;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateRetentionPolicyType;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateStatus;
import dev.kruisevertx.api.apps.v1alpha1.PodState;
import dev.kruisevertx.api.apps.v1alpha1.PreferredTopologyTerm;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.IntPredicate;

/**
 * The controller's decision for one PersistentPodState (OpenKruise's Reconcile): for every ready pod with a node, the
 * node's values of the topology keys (required and preferred) and the pod's values of the persistent annotation
 * keys, recorded again only when the node or the key sets changed; under {@code WhenScaled} (the default, and any
 * value other than {@code WhenDeleted}) the states of pods that are gone and whose ordinal is outside the workload's
 * replicas are dropped; all states are dropped once the workload is gone or being deleted.
 */
public final class PodStateRecording {
    private PodStateRecording() {
    }

    /**
     * The workload as the decision needs it.
     *
     * @param inReplicas whether an ordinal is one the workload keeps at its current size (reserved ordinals skipped)
     * @param deleting   whether the workload has a deletionTimestamp
     */
    public record Workload(IntPredicate inReplicas, boolean deleting) {
    }

    /**
     * The new status and what changed.
     *
     * @param recorded  pods whose state was (re)recorded
     * @param forgotten pods whose state was dropped
     * @param waiting   pods not recorded yet, with the reason (not ready, no node, node not in the cache)
     */
    public record Plan(PersistentPodStateStatus status, List<String> recorded, List<String> forgotten,
                       List<String> waiting, String reason) {
    }

    /**
     * @param workload  the target, null when it does not exist
     * @param pods      the workload's pods by name
     * @param nodeLabels a node's labels, null when the node is not known
     */
    public static Plan decide(PersistentPodState pps, Workload workload, Map<String, Pod> pods,
                              Function<String, Map<String, String>> nodeLabels) {
        long generation = pps.getMetadata().getGeneration() == null ? 0 : pps.getMetadata().getGeneration();
        Map<String, PodState> old = pps.status().states();
        PersistentPodStateStatus status = new PersistentPodStateStatus();
        status.setObservedGeneration(generation);
        if (workload == null || workload.deleting()) {
            return new Plan(status, List.of(), new ArrayList<>(new TreeSet<>(old.keySet())), List.of(),
                    workload == null ? "workload not found: all pod states dropped"
                            : "workload being deleted: all pod states dropped");
        }
        Set<String> topologyKeys = topologyKeys(pps);
        Set<String> annotationKeys = new TreeSet<>();
        for (PersistentPodAnnotation a : pps.spec().getPersistentPodAnnotations() == null
                ? List.<PersistentPodAnnotation>of() : pps.spec().getPersistentPodAnnotations()) {
            if (a != null && a.getKey() != null) {
                annotationKeys.add(a.getKey());
            }
        }
        TreeMap<String, PodState> states = new TreeMap<>(old);
        List<String> recorded = new ArrayList<>();
        List<String> waiting = new ArrayList<>();
        for (Pod pod : new TreeMap<>(pods).values()) {
            String name = pod.getMetadata().getName();
            String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            if (!Pods.isReady(pod) || node == null || node.isEmpty()) {
                waiting.add(name + ": not ready");
                continue;
            }
            PodState current = states.get(name);
            if (current != null && node.equals(current.getNodeName())
                    && sameKeys(current, topologyKeys, annotationKeys)) {
                continue;
            }
            Map<String, String> labels = nodeLabels.apply(node);
            if (labels == null) {
                waiting.add(name + ": node " + node + " not found");
                continue;
            }
            PodState fresh = new PodState(node, pick(labels, topologyKeys), pick(Pods.annotations(pod), annotationKeys));
            if (!fresh.equals(current)) {
                states.put(name, fresh);
                recorded.add(name);
            }
        }
        List<String> forgotten = new ArrayList<>();
        boolean whenDeleted = pps.spec().retentionPolicyValue().orElse(null)
                == PersistentPodStateRetentionPolicyType.WHEN_DELETED;
        if (!whenDeleted) {
            for (String name : new ArrayList<>(states.keySet())) {
                Integer ordinal = ordinal(name);
                if (ordinal == null || workload.inReplicas().test(ordinal) || pods.containsKey(name)) {
                    continue;
                }
                states.remove(name);
                forgotten.add(name);
            }
        }
        status.setPodStates(states.isEmpty() ? null : states);
        return new Plan(status, recorded, forgotten, waiting,
                recorded.size() + " recorded, " + forgotten.size() + " dropped, " + waiting.size() + " waiting");
    }

    /** Every key of the required and preferred terms. */
    static Set<String> topologyKeys(PersistentPodState pps) {
        Set<String> keys = new TreeSet<>();
        NodeTopologyTerm required = pps.spec().getRequiredPersistentTopology();
        if (required != null) {
            keys.addAll(nonNull(required.keys()));
        }
        for (PreferredTopologyTerm t : pps.spec().getPreferredPersistentTopology() == null
                ? List.<PreferredTopologyTerm>of() : pps.spec().getPreferredPersistentTopology()) {
            if (t != null) {
                keys.addAll(nonNull(t.preference().keys()));
            }
        }
        return keys;
    }

    /**
     * Whether a recorded state holds exactly the keys asked for. A key the node or pod lacked is not recorded, so such
     * a state is looked up again each pass (as OpenKruise), and written only when something differs.
     */
    private static boolean sameKeys(PodState current, Set<String> topologyKeys, Set<String> annotationKeys) {
        return current.labels().keySet().equals(topologyKeys) && current.annotations().keySet().equals(annotationKeys);
    }

    /** The values of {@code keys} in {@code from}; null when none (omitted from the status, as OpenKruise). */
    private static Map<String, String> pick(Map<String, String> from, Set<String> keys) {
        TreeMap<String, String> out = new TreeMap<>();
        for (String k : keys) {
            String v = from.get(k);
            if (v != null) {
                out.put(k, v);
            }
        }
        return out.isEmpty() ? null : out;
    }

    private static List<String> nonNull(List<String> keys) {
        List<String> out = new ArrayList<>();
        for (String k : keys) {
            if (k != null) {
                out.add(k);
            }
        }
        return out;
    }

    /** The ordinal after the last '-' (OpenKruise's parseStsPodIndex); null when it is not a number. */
    static Integer ordinal(String podName) {
        int dash = podName.lastIndexOf('-');
        String tail = podName.substring(dash + 1);
        if (tail.isEmpty() || tail.length() > 10) {
            return null;
        }
        try {
            return Integer.valueOf(tail);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
