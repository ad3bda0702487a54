package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;

/** CloneSet subsets: partition {@code updateStrategy.partition}; updated counts from the CloneSet's status. */
final class CloneSetSubsetAdapter implements SubsetAdapter<CloneSet> {

    @Override
    public SubsetWorkloads.Kind kind() {
        return SubsetWorkloads.Kind.CLONE_SET;
    }

    @Override
    public Class<CloneSet> type() {
        return CloneSet.class;
    }

    @Override
    public SubsetWorkload read(CloneSet c, List<Pod> namespacePods, String updatedRevision) {
        int specReplicas = c.getSpec() == null || c.getSpec().getReplicas() == null ? 1 : c.getSpec().getReplicas();
        IntOrString p = c.getSpec() == null || c.getSpec().getUpdateStrategy() == null ? null
                : c.getSpec().getUpdateStrategy().getPartition();
        int partition = p == null || p.getIntVal() == null ? 0 : p.getIntVal();
        var s = c.getStatus();
        return SubsetAdapter.workload(c, kind(), specReplicas, partition, s == null ? 0 : s.getReplicas(),
                s == null ? 0 : s.getReadyReplicas(), s == null ? new int[] {0, 0}
                        : SubsetAdapter.updatedFromStatus(c, s.getObservedGeneration(), updatedRevision, s.getUpdatedReplicas(),
                        s.getUpdatedReadyReplicas()));
    }
}
