package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.Subset;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSpec;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentUpdateStrategy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The UnitedDeployment controller's decision, as OpenKruise v1.9.0's reconcile makes it. Pure: the spec, the
 * revision the subsets should be at and the existing subset workloads in, a {@link UnitedDeploymentPlan} out.
 *
 * <ol>
 *   <li>workloads of another kind than the template makes are deleted (a template of a new kind replaces them);</li>
 *   <li>of several workloads of one subset the first by name is kept, the others are deleted;</li>
 *   <li>replicas per subset from {@link ReplicaAllocator}; the partition per subset from
 *       {@code updateStrategy.manualUpdate.partitions} (Manual type only), at most the subset's replicas;</li>
 *   <li>subsets without a workload are created, workloads of subsets that left the topology are deleted;</li>
 *   <li>a workload is updated when its revision, replicas, partition or subset patch differ from the wanted ones,
 *       or its own update is unfinished (fewer updated than current pods).</li>
 * </ol>
 */
public final class UnitedDeploymentPlanner {
    private UnitedDeploymentPlanner() {
    }

    public static UnitedDeploymentPlan plan(UnitedDeploymentSpec spec, String revision, List<SubsetWorkload> existing) {
        return plan(spec, revision, existing, Set.of());
    }

    /**
     * @param unschedulable the subsets the Adaptive strategy holds to their ready pods
     *                      ({@link AdaptiveSchedulability}); ignored unless the strategy is Adaptive
     */
    public static UnitedDeploymentPlan plan(UnitedDeploymentSpec spec, String revision, List<SubsetWorkload> existing,
                                            Set<String> unschedulable) {
        return plan(spec, revision, existing, unschedulable, Map.of());
    }

    /**
     * @param adaptive the allocator's view of subsets as {@link AdaptiveScheduling} evaluated them (reserved pods,
     *                 marked subsets); a subset found here is taken as it is
     */
    public static UnitedDeploymentPlan plan(UnitedDeploymentSpec spec, String revision, List<SubsetWorkload> existing,
                                            Map<String, SubsetState> adaptive) {
        return plan(spec, revision, existing, Set.of(), adaptive);
    }

    private static UnitedDeploymentPlan plan(UnitedDeploymentSpec spec, String revision, List<SubsetWorkload> existing,
                                             Set<String> unschedulable, Map<String, SubsetState> adaptive) {
        List<UnitedDeploymentPlan.Delete> deletes = new ArrayList<>();
        Optional<SubsetWorkloads.Kind> kind = SubsetWorkloads.kindOf(spec.getTemplate());
        Map<String, SubsetWorkload> bySubset = new LinkedHashMap<>();
        List<SubsetWorkload> sorted = new ArrayList<>(existing);
        sorted.sort(Comparator.comparing(SubsetWorkload::name));
        for (SubsetWorkload w : sorted) {
            if (kind.isEmpty() || w.kind() != kind.get()) {
                deletes.add(new UnitedDeploymentPlan.Delete(w.name(), w.subsetName(), "kind changed"));
            } else if (bySubset.containsKey(w.subsetName())) {
                deletes.add(new UnitedDeploymentPlan.Delete(w.name(), w.subsetName(), "duplicate"));
            } else {
                bySubset.put(w.subsetName(), w);
            }
        }
        Map<String, SubsetState> states = new LinkedHashMap<>();
        bySubset.forEach((name, w) -> states.put(name, adaptive.containsKey(name) ? adaptive.get(name)
                : new SubsetState(w.specReplicas(), w.readyReplicas(), unschedulable.contains(name), false, 0)));
        Map<String, Integer> next;
        try {
            next = ReplicaAllocator.allocate(spec, states);
        } catch (ReplicaAllocator.AllocationException e) {
            return new UnitedDeploymentPlan(Map.of(), Map.of(), List.of(), List.of(), List.of(), e.getMessage());
        }
        Map<String, Integer> partitions = partitions(spec, next);
        Set<String> expected = new LinkedHashSet<>();
        spec.topology().subsets().forEach(s -> expected.add(s.getName()));
        List<UnitedDeploymentPlan.Create> creates = new ArrayList<>();
        List<UnitedDeploymentPlan.Update> updates = new ArrayList<>();
        if (kind.isPresent()) {
            for (Subset s : spec.topology().subsets()) {
                SubsetWorkload w = bySubset.get(s.getName());
                int replicas = next.get(s.getName());
                int partition = partitions.get(s.getName());
                if (w == null) {
                    creates.add(new UnitedDeploymentPlan.Create(s.getName(), replicas, partition));
                    continue;
                }
                String patch = s.getPatch() == null || s.getPatch().isNull() ? "" : s.getPatch().toString();
                String reason = !revision.equals(w.revision()) ? "revision"
                        : w.specReplicas() != replicas ? "replicas"
                        : w.partition() != partition ? "partition"
                        : !patch.equals(w.patch() == null ? "" : w.patch()) ? "patch"
                        : w.updatedReplicas() < w.replicas() ? "updating" : null;
                if (reason != null) {
                    updates.add(new UnitedDeploymentPlan.Update(w.name(), s.getName(), replicas, partition, reason));
                }
            }
        }
        bySubset.forEach((name, w) -> {
            if (!expected.contains(name)) {
                deletes.add(new UnitedDeploymentPlan.Delete(w.name(), name, "not in topology"));
            }
        });
        return new UnitedDeploymentPlan(next, partitions, creates, updates, deletes, null);
    }

    /** OpenKruise's calcNextPartitions: the manual partition of each subset, at most its next replicas. */
    static Map<String, Integer> partitions(UnitedDeploymentSpec spec, Map<String, Integer> next) {
        UnitedDeploymentUpdateStrategy strategy = spec.getUpdateStrategy();
        Map<String, Integer> manual = strategy != null && UnitedDeploymentUpdateStrategy.MANUAL.equals(strategy.getType())
                && strategy.getManualUpdate() != null ? strategy.getManualUpdate().getPartitions() : null;
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Subset s : spec.topology().subsets()) {
            int partition = manual == null || manual.get(s.getName()) == null ? 0 : manual.get(s.getName());
            Integer replicas = next.get(s.getName());
            if (replicas != null && partition > replicas) {
                partition = replicas;
            }
            out.put(s.getName(), partition);
        }
        return out;
    }
}
