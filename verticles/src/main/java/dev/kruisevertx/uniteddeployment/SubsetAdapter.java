package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Map;

/**
 * One subset workload kind as the UnitedDeployment controller reads it, as OpenKruise's subset adapters do: its API
 * type (for the cache and the writes) and how its spec and status become a {@link SubsetWorkload}. Pure.
 *
 * @param <T> the workload's model class
 */
interface SubsetAdapter<T extends HasMetadata> {

    SubsetWorkloads.Kind kind();

    Class<T> type();

    /**
     * @param namespacePods   the pods of the workload's namespace, from the cache
     * @param updatedRevision the UnitedDeployment's update revision
     */
    SubsetWorkload read(T workload, List<Pod> namespacePods, String updatedRevision);

    /** The adapter of each kind. */
    static List<SubsetAdapter<?>> all() {
        return List.of(new StatefulSetSubsetAdapter(), new AdvancedStatefulSetSubsetAdapter(),
                new CloneSetSubsetAdapter(), new DeploymentSubsetAdapter());
    }

    /** The adapter of {@code kind}. */
    static SubsetAdapter<?> of(SubsetWorkloads.Kind kind) {
        return all().stream().filter(a -> a.kind() == kind).findFirst().orElseThrow();
    }

    /** The fields every kind reads alike (labels and annotations) around the kind's own numbers. */
    static SubsetWorkload workload(HasMetadata w, SubsetWorkloads.Kind kind, int specReplicas, int partition,
                                   int replicas, int ready, int[] updated) {
        Map<String, String> labels = Pods.labels(w);
        Map<String, String> annotations = Pods.annotations(w);
        return new SubsetWorkload(w.getMetadata().getName(), kind, labels.get(UnitedDeployment.SUBSET_NAME_LABEL),
                labels.get(UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL),
                annotations.get(UnitedDeployment.SUBSET_PATCH_ANNOTATION), specReplicas, partition, replicas, ready,
                updated[0], updated[1]);
    }

    /**
     * OpenKruise's CalculateUpdatedReplicas over the workload's pods (those its selector matches, not being deleted):
     * the pods labelled with the update revision, those of them ready, and (third) all of them.
     */
    static int[] updatedFromPods(LabelSelector selector, List<Pod> namespacePods, String updatedRevision) {
        int updated = 0;
        int updatedReady = 0;
        int active = 0;
        if (selector == null) {
            return new int[] {0, 0, 0};
        }
        for (Pod p : namespacePods) {
            if (!Pods.isActive(p) || !LabelSelectors.matches(selector, Pods.labels(p))) {
                continue;
            }
            active++;
            if (updatedRevision != null && updatedRevision.equals(Pods.label(p, UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL))) {
                updated++;
                if (Pods.isReady(p)) {
                    updatedReady++;
                }
            }
        }
        return new int[] {updated, updatedReady, active};
    }

    /**
     * The replicas of a workload whose updated counts come from its pods: its status's, but never fewer than the
     * pods counted, since a status lagging a recreated pod would otherwise let updated-and-ready pods reach the
     * total early and move {@code currentRevision} past a held partition.
     */
    static int replicas(Integer statusReplicas, int[] fromPods) {
        return Math.max(orZero(statusReplicas), fromPods[2]);
    }

    /**
     * The workload's own updated counts, when it is at the update revision and its controller has seen that
     * template (its status then counts pods at the UnitedDeployment's update revision); none before: a status
     * computed for the previous template would count old pods as updated and move {@code currentRevision} early.
     */
    static int[] updatedFromStatus(HasMetadata w, long observedGeneration, String updatedRevision, int updated,
                                   int updatedReady) {
        boolean atUpdate = updatedRevision != null
                && updatedRevision.equals(Pods.label(w, UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL))
                && w.getMetadata().getGeneration() != null && observedGeneration >= w.getMetadata().getGeneration();
        return atUpdate ? new int[] {updated, updatedReady} : new int[] {0, 0};
    }

    static int orZero(Integer i) {
        return i == null ? 0 : i;
    }
}
