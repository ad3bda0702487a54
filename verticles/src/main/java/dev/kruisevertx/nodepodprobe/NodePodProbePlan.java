package dev.kruisevertx.nodepodprobe;

import dev.kruisevertx.api.apps.v1alpha1.NodePodProbeSpec;
import dev.kruisevertx.controller.PlanSummary;
import io.fabric8.kubernetes.api.model.PodCondition;

import java.util.List;
import java.util.Map;

/**
 * What the nodepodprobe controller does for one node's NodePodProbe: create it, delete it (its node is gone), drop the
 * entries of gone pods ({@code spec} non-null), and write probe results to pods.
 */
public record NodePodProbePlan(boolean create, boolean delete, NodePodProbeSpec spec, List<PodUpdate> podUpdates,
                               String reason) {

    /**
     * Changes to one pod: conditions to set (by type), and labels/annotations to set (a null value removes the key).
     */
    public record PodUpdate(String namespace, String name, String uid, List<PodCondition> conditions,
                            Map<String, String> labels, Map<String, String> annotations) {
        public boolean metadataChanges() {
            return !labels.isEmpty() || !annotations.isEmpty();
        }
    }

    public boolean isEmpty() {
        return !create && !delete && spec == null && podUpdates.isEmpty();
    }

    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(reason).count("podUpdates", podUpdates.size());
        if (create) {
            b.action("create");
        }
        if (delete) {
            b.action("delete: node gone");
        }
        if (spec != null) {
            b.action("drop probes of gone pods");
        }
        podUpdates.forEach(u -> b.action("pod " + u.namespace() + "/" + u.name() + ": " + u.conditions().size()
                + " conditions, " + u.labels().size() + " labels, " + u.annotations().size() + " annotations"));
        return b.build();
    }
}
