package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.controller.PlanSummary;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * What one UnitedDeployment decision reads from the shared cache: the UnitedDeployment, its CloneSet subsets (the
 * cached objects, never modified) and the revision its template makes.
 *
 * @param revision  the {@code controller-revision-hash} the subsets should carry: a hash of {@code spec.template}
 * @param workloads the subset workloads as the planner reads them
 * @param cloneSets the cached CloneSets by name
 */
public record UnitedDeploymentSnapshot(String revision, List<SubsetWorkload> workloads, Map<String, CloneSet> cloneSets) {

    public static UnitedDeploymentSnapshot read(UnitedDeployment ud, List<CloneSet> owned) {
        Map<String, CloneSet> byName = new LinkedHashMap<>();
        owned.forEach(c -> byName.put(c.getMetadata().getName(), c));
        String revision = revisionOf(ud);
        return new UnitedDeploymentSnapshot(revision, owned.stream().map(c -> workload(c, revision)).toList(), byName);
    }

    /** A short stable hash of the template: the same template always gives the same revision. */
    static String revisionOf(UnitedDeployment ud) {
        CRC32 crc = new CRC32();
        crc.update(ApiJson.toJson(ud.spec().getTemplate()).getBytes(StandardCharsets.UTF_8));
        return ud.getMetadata().getName() + "-" + Long.toHexString(crc.getValue());
    }

    /**
     * The CloneSet's updated counts refer to its own update revision: they count as updated to the UnitedDeployment's
     * revision only once the CloneSet carries that revision and its status reflects its spec (observedGeneration);
     * before, right after a template change, its stale counts would move {@code currentRevision} at once.
     */
    static SubsetWorkload workload(CloneSet c, String revision) {
        SubsetWorkload w = workload(c);
        long generation = c.getMetadata().getGeneration() == null ? 0 : c.getMetadata().getGeneration();
        boolean current = revision.equals(w.revision()) && c.getStatus() != null
                && c.getStatus().getObservedGeneration() >= generation;
        return current ? w : new SubsetWorkload(w.name(), w.kind(), w.subsetName(), w.revision(), w.patch(),
                w.specReplicas(), w.partition(), w.replicas(), w.readyReplicas(), 0, 0);
    }

    static SubsetWorkload workload(CloneSet c) {
        Map<String, String> labels = c.getMetadata().getLabels() == null ? Map.of() : c.getMetadata().getLabels();
        Map<String, String> annotations = c.getMetadata().getAnnotations() == null ? Map.of()
                : c.getMetadata().getAnnotations();
        int specReplicas = c.getSpec() == null || c.getSpec().getReplicas() == null ? 1 : c.getSpec().getReplicas();
        IntOrString p = c.getSpec() == null || c.getSpec().getUpdateStrategy() == null ? null
                : c.getSpec().getUpdateStrategy().getPartition();
        int partition = p == null || p.getIntVal() == null ? 0 : p.getIntVal();
        var s = c.getStatus();
        return new SubsetWorkload(c.getMetadata().getName(), SubsetWorkloads.Kind.CLONE_SET,
                labels.get(UnitedDeployment.SUBSET_NAME_LABEL), labels.get(UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL),
                annotations.get(UnitedDeployment.SUBSET_PATCH_ANNOTATION), specReplicas, partition,
                s == null ? 0 : s.getReplicas(), s == null ? 0 : s.getReadyReplicas(),
                s == null ? 0 : s.getUpdatedReplicas(), s == null ? 0 : s.getUpdatedReadyReplicas());
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
