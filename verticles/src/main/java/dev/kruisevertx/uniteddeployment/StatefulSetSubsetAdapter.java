package dev.kruisevertx.uniteddeployment;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;

import java.util.List;

/**
 * apps/v1 StatefulSet subsets: partition {@code updateStrategy.rollingUpdate.partition}; its status has no
 * updated-and-ready count, so the updated counts come from its pods' UnitedDeployment revision label.
 */
final class StatefulSetSubsetAdapter implements SubsetAdapter<StatefulSet> {

    @Override
    public SubsetWorkloads.Kind kind() {
        return SubsetWorkloads.Kind.STATEFUL_SET;
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
        int[] fromPods = SubsetAdapter.updatedFromPods(spec == null ? null : spec.getSelector(), namespacePods,
                updatedRevision);
        return SubsetAdapter.workload(set, kind(), specReplicas, partition,
                SubsetAdapter.replicas(s == null ? null : s.getReplicas(), fromPods),
                s == null ? 0 : SubsetAdapter.orZero(s.getReadyReplicas()), fromPods);
    }
}
