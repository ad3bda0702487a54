package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;

/**
 * Advanced StatefulSet ({@code apps.kruise.io/v1beta1}) subsets: partition
 * {@code updateStrategy.rollingUpdate.partition}; updated counts from the set's status.
 */
final class AdvancedStatefulSetSubsetAdapter implements SubsetAdapter<StatefulSet> {

    @Override
    public SubsetWorkloads.Kind kind() {
        return SubsetWorkloads.Kind.ADVANCED_STATEFUL_SET;
    }

    @Override
    public Class<StatefulSet> type() {
        return StatefulSet.class;
    }

    @Override
    public SubsetWorkload read(StatefulSet set, List<Pod> namespacePods, String updatedRevision) {
        var spec = set.getSpec();
        int specReplicas = spec == null || spec.getReplicas() == null ? 1 : spec.getReplicas();
        int partition = spec == null || spec.getUpdateStrategy() == null
                || spec.getUpdateStrategy().getRollingUpdate() == null ? 0
                : SubsetAdapter.orZero(spec.getUpdateStrategy().getRollingUpdate().getPartition());
        var s = set.getStatus();
        return SubsetAdapter.workload(set, kind(), specReplicas, partition, s == null ? 0 : s.getReplicas(),
                s == null ? 0 : s.getReadyReplicas(), s == null ? new int[] {0, 0}
                        : SubsetAdapter.updatedFromStatus(set, s.getObservedGeneration(), updatedRevision, s.getUpdatedReplicas(),
                        s.getUpdatedReadyReplicas()));
    }
}
