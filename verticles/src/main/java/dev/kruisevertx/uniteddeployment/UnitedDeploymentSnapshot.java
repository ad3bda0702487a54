package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.controller.PlanSummary;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one UnitedDeployment decision reads from the shared cache (the cached objects, never modified): the
 * ControllerRevisions and subset workloads of every kind it controls, and the pods of its namespace (the apps/v1
 * StatefulSet and Deployment adapters count updated pods from them).
 *
 * @param history the ControllerRevisions it controls
 * @param subsets the subset workloads it controls, of any kind
 * @param pods    the pods of its namespace
 */
public record UnitedDeploymentSnapshot(List<ControllerRevision> history, List<HasMetadata> subsets, List<Pod> pods) {

    public static UnitedDeploymentSnapshot read(List<ControllerRevision> history, List<? extends HasMetadata> subsets,
                                                List<Pod> pods) {
        return new UnitedDeploymentSnapshot(List.copyOf(history), List.copyOf(subsets), List.copyOf(pods));
    }

    /** The subset workloads as the planner reads them, their updated counts against {@code updatedRevision}. */
    public List<SubsetWorkload> workloads(String updatedRevision) {
        List<SubsetWorkload> out = new ArrayList<>();
        for (HasMetadata w : subsets) {
            SubsetAdapter<?> adapter = adapterOf(w);
            if (adapter != null) {
                out.add(read(adapter, w, updatedRevision));
            }
        }
        return out;
    }

    /** The CloneSet subsets by name (Adaptive reads their update revision to judge their pods). */
    public Map<String, dev.kruisevertx.api.apps.v1alpha1.CloneSet> cloneSets() {
        Map<String, dev.kruisevertx.api.apps.v1alpha1.CloneSet> out = new LinkedHashMap<>();
        for (HasMetadata w : subsets) {
            if (w instanceof dev.kruisevertx.api.apps.v1alpha1.CloneSet c) {
                out.put(c.getMetadata().getName(), c);
            }
        }
        return out;
    }

    /** The kind of each subset workload, by name. */
    public Map<String, SubsetWorkloads.Kind> kinds() {
        Map<String, SubsetWorkloads.Kind> out = new LinkedHashMap<>();
        for (HasMetadata w : subsets) {
            SubsetAdapter<?> adapter = adapterOf(w);
            if (adapter != null) {
                out.put(w.getMetadata().getName(), adapter.kind());
            }
        }
        return out;
    }

    private static SubsetAdapter<?> adapterOf(HasMetadata w) {
        for (SubsetAdapter<?> a : SubsetAdapter.all()) {
            if (a.type().isInstance(w)) {
                return a;
            }
        }
        return null;
    }

    private <T extends HasMetadata> SubsetWorkload read(SubsetAdapter<T> adapter, HasMetadata w, String revision) {
        return adapter.read(adapter.type().cast(w), pods, revision);
    }

    /** Names, counts and reasons only. */
    static PlanSummary debugSummary(UnitedDeploymentPlan plan) {
        if (plan.allocationError() != null) {
            return PlanSummary.builder("cannot allocate replicas: " + plan.allocationError()).build();
        }
        PlanSummary.Builder b = PlanSummary.builder(plan.idle() ? "subsets as wanted" : "changing subsets")
                .count("creates", plan.creates().size()).count("updates", plan.updates().size())
                .count("deletes", plan.deletes().size());
        plan.nextReplicas().forEach((subset, n) -> b.action("subset " + subset + ": replicas " + n + ", partition "
                + plan.nextPartitions().getOrDefault(subset, 0)));
        plan.creates().forEach(c -> b.action("create subset " + c.subset()));
        plan.updates().forEach(u -> b.action("update " + u.workload() + " (" + u.reason() + ")"));
        plan.deletes().forEach(d -> b.action("delete " + d.workload() + " (" + d.reason() + ")"));
        return b.build();
    }
}
