package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.cloneset.CloneSetPlan.Phase;
import dev.kruisevertx.controller.reason.PodBlockers;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * Decides one reconcile of a CloneSet from a snapshot, without touching the API: first scaling (cancel
 * preparing-delete, create, delete pods whose hook released them, specified deletes, scale down), and only when
 * scaling has nothing to do, updating (refresh pod states, then move pods between revisions within partition
 * and maxUnavailable). Recreate updates only mark pods {@code specified-delete}: the scale step of a later
 * reconcile deletes them within maxUnavailable and creates their replacements within maxSurge.
 */
public final class CloneSetPlanner {
    /**
     * At most this many pods are created by one reconcile (kube's ReplicaSet calls it burstReplicas): a scale-up by
     * 100,000 is planned and created 500 at a time, so a plan never holds more pods than one slow-start pass sends,
     * and a CloneSet deleted or changed mid-way stops after the batch in flight.
     */
    public static final int MAX_CREATES_PER_PLAN = 500;

    private CloneSetPlanner() {
    }

    /**
     * Feature gates and knobs the decision depends on.
     *
     * @param scalingExcludePreparingDelete the manager flag {@code --cloneset-scaling-exclude-preparing-delete}:
     *                                      for every CloneSet, pods in PreparingDelete do not count towards
     *                                      replicas (as the CloneSet label of the same name does for one)
     */
    public record Options(boolean partitionRollback, boolean shortHash, boolean preparingUpdateAsUpdate,
                          boolean envFromMetadata, boolean scalingExcludePreparingDelete) {
        public Options(boolean partitionRollback, boolean shortHash, boolean preparingUpdateAsUpdate,
                       boolean envFromMetadata) {
            this(partitionRollback, shortHash, preparingUpdateAsUpdate, envFromMetadata, false);
        }

        public static Options defaults() {
            return new Options(false, false, false, true, false);
        }

        public Options withScalingExcludePreparingDelete(boolean exclude) {
            return new Options(partitionRollback, shortHash, preparingUpdateAsUpdate, envFromMetadata, exclude);
        }
    }

    /**
     * The snapshot a decision is made from.
     *
     * @param pods            the CloneSet's active pods (owned, matching its selector, not terminating)
     * @param pvcs            PVCs owned by the CloneSet
     * @param currentTemplate the pod template of {@code currentRevision}
     * @param terminatingIds  instance ids of the CloneSet's pods still terminating: their names are taken until
     *                        they are gone, so their ids (and PVCs) are not reused yet
     * @param revisions       the CloneSet's ControllerRevisions (in-place updates are computed between them)
     * @param nodeLabels      labels of a node by name (null when unknown), read only to rank a scale-down when the
     *                        template has topologySpreadConstraints
     */
    public record State(CloneSet cs, List<Pod> pods, List<PersistentVolumeClaim> pvcs, String currentRevision,
                        PodTemplateSpec currentTemplate, String updateRevision, Options options, Instant now,
                        Set<String> terminatingIds, List<ControllerRevision> revisions,
                        Function<String, Map<String, String>> nodeLabels) {
        public State {
            terminatingIds = terminatingIds == null ? Set.of() : Set.copyOf(terminatingIds);
            revisions = revisions == null ? List.of() : List.copyOf(revisions);
            nodeLabels = nodeLabels == null ? name -> null : nodeLabels;
        }

        public State(CloneSet cs, List<Pod> pods, List<PersistentVolumeClaim> pvcs, String currentRevision,
                     PodTemplateSpec currentTemplate, String updateRevision, Options options, Instant now,
                     Set<String> terminatingIds, List<ControllerRevision> revisions) {
            this(cs, pods, pvcs, currentRevision, currentTemplate, updateRevision, options, now, terminatingIds,
                    revisions, null);
        }

        public State(CloneSet cs, List<Pod> pods, List<PersistentVolumeClaim> pvcs, String currentRevision,
                     PodTemplateSpec currentTemplate, String updateRevision, Options options, Instant now,
                     Set<String> terminatingIds) {
            this(cs, pods, pvcs, currentRevision, currentTemplate, updateRevision, options, now, terminatingIds, List.of());
        }
    }

    public static CloneSetPlan plan(State s, Random random) {
        CloneSetPlan scale = CloneSetScalePlanner.planScale(s, random);
        CloneSetPlan plan = scale.hasActions() || scale.phase() == Phase.WAIT ? scale
                : CloneSetUpdatePlanner.planUpdate(s, scale).withReasons(scale.reasons());
        // What the pods themselves wait for (the scheduler, minReadySeconds): what the budgets above wait for.
        plan = plan.withReasons(PodBlockers.of(s.pods(), s.cs().getSpec().getMinReadySeconds(), s.now()));
        // Every step (maxUnavailable budgets, the status) counts available pods, and a ready pod turns available
        // only by time passing, which no event announces: look again when the first one does.
        return plan.requeueWithin(Pods.nextAvailableIn(s.pods(), s.cs().getSpec().getMinReadySeconds(), s.now()));
    }

    // The update steps on their own, for the planner's tests.

    static CloneSetPlan planUpdate(State s, CloneSetPlan scale) {
        return CloneSetUpdatePlanner.planUpdate(s, scale);
    }

    /** The update order of the candidate pods (indexes into {@code pods}); see {@link CloneSetUpdatePlanner}. */
    static List<Integer> sortForUpdate(List<Pod> pods, List<Integer> indexes, CloneSetUpdateStrategy us) {
        return CloneSetUpdatePlanner.sortForUpdate(pods, indexes, us);
    }

    /** The candidates updated now, within |updateNum| and maxUnavailable; see {@link CloneSetUpdatePlanner}. */
    static List<Pod> limit(State s, CloneSetDiff diff, List<Integer> candidates, String target, int minReady) {
        return CloneSetUpdatePlanner.limit(s, diff, candidates, target, minReady);
    }
}
