package dev.kruisevertx.uniteddeployment;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;

import java.util.List;

/**
 * Deployment subsets: no partition (a Deployment always rolls all its pods); updated counts from its pods'
 * UnitedDeployment revision label, as its status has no updated-and-ready count.
 */
final class DeploymentSubsetAdapter implements SubsetAdapter<Deployment> {

    @Override
    public SubsetWorkloads.Kind kind() {
        return SubsetWorkloads.Kind.DEPLOYMENT;
    }

    @Override
    public Class<Deployment> type() {
        return Deployment.class;
    }

    @Override
    public SubsetWorkload read(Deployment d, List<Pod> namespacePods, String updatedRevision) {
        var spec = d.getSpec();
        int specReplicas = spec == null || spec.getReplicas() == null ? 1 : spec.getReplicas();
        var s = d.getStatus();
        int[] fromPods = SubsetAdapter.updatedFromPods(spec == null ? null : spec.getSelector(), namespacePods,
                updatedRevision);
        return SubsetAdapter.workload(d, kind(), specReplicas, 0,
                SubsetAdapter.replicas(s == null ? null : s.getReplicas(), fromPods),
                s == null ? 0 : SubsetAdapter.orZero(s.getReadyReplicas()), fromPods);
    }
}
