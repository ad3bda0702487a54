package dev.kruisevertx.cloneset;

import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetScaleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * The CloneSet decision, as a value: how many pods to create and delete (and how many of those at the current
 * revision), how many to move between revisions, and the limits every action must respect. It is the same
 * calculation as OpenKruise's {@code calculateDiffsWithExpectation}; scale and update act on it and never
 * count pods themselves.
 *
 * @param scaleUpNum              pods to create
 * @param scaleUpNumOldRevision   of those, how many at the current (old) revision; may exceed scaleUpNum
 * @param scaleDownNum            pods to delete, beyond those already specified for deletion
 * @param scaleDownNumOldRevision of those, how many at old revisions; may exceed scaleDownNum
 * @param scaleUpLimit            most pods to create now (scaleStrategy.maxUnavailable)
 * @param deleteReadyLimit        most available pods to delete now (updateStrategy.maxUnavailable)
 * @param useSurge                pods above replicas to use now
 * @param useSurgeOldRevision     part of useSurge at old revisions
 * @param updateNum               pods to move to the update revision (negative: back to the current revision)
 * @param updateMaxUnavailable    most pods that may be unavailable while updating
 */
public record CloneSetDiff(int scaleUpNum, int scaleUpNumOldRevision, int scaleDownNum, int scaleDownNumOldRevision,
                           int scaleUpLimit, int deleteReadyLimit, int useSurge, int useSurgeOldRevision,
                           int updateNum, int updateMaxUnavailable) {

    public static final CloneSetDiff EMPTY = new CloneSetDiff(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Which pods count as updated: by default, those labelled with the update revision. */
    public static final BiPredicate<Pod, String> AT_REVISION = Pods::atRevision;

    /**
     * With PreparingUpdateAsUpdate, scaling counts a pod waiting in PreparingUpdate as already updated.
     */
    public static final BiPredicate<Pod, String> AT_REVISION_OR_PREPARING_UPDATE = (pod, revision) ->
            WellKnown.LIFECYCLE_STATE_PREPARING_UPDATE.equals(Pods.lifecycleState(pod)) || Pods.atRevision(pod, revision);

    public boolean isEmpty() {
        return equals(EMPTY);
    }

    /**
     * @param cs                the CloneSet (spec read only)
     * @param pods              its active pods
     * @param rollbackEnabled   gate CloneSetPartitionRollback
     * @param isPodUpdate       which pods count as at the update revision; null for {@link #AT_REVISION}
     * @param now               the clock reading for minReadySeconds
     * @throws IllegalArgumentException when a percentage field is malformed
     */
    public static CloneSetDiff calculate(CloneSet cs, List<Pod> pods, String currentRevision, String updateRevision,
                                         boolean rollbackEnabled, BiPredicate<Pod, String> isPodUpdate, Instant now) {
        return calculate(cs, pods, currentRevision, updateRevision, rollbackEnabled, isPodUpdate, now, false);
    }

    /**
     * @param excludePreparingDeleteForAll the manager flag {@code --cloneset-scaling-exclude-preparing-delete}:
     *                                     like the CloneSet label, for every CloneSet
     * @see #calculate(CloneSet, List, String, String, boolean, BiPredicate, Instant)
     */
    public static CloneSetDiff calculate(CloneSet cs, List<Pod> pods, String currentRevision, String updateRevision,
                                         boolean rollbackEnabled, BiPredicate<Pod, String> isPodUpdate, Instant now,
                                         boolean excludePreparingDeleteForAll) {
        Limits limits = Limits.of(cs);
        int replicas = limits.replicas;
        int minReadySeconds = cs.getSpec().getMinReadySeconds();
        BiPredicate<Pod, String> updated = isPodUpdate == null ? AT_REVISION : isPodUpdate;

        Tally fresh = new Tally();
        Tally old = new Tally();
        for (Pod p : pods) {
            boolean isNew = updated.test(p, updateRevision);
            boolean preDeleting = Pods.isPreparingDelete(p);
            boolean toDelete = !preDeleting && isSpecifiedDelete(cs, p);
            boolean unavailable = !preDeleting && !toDelete && !Pods.isServing(p, minReadySeconds, now);
            (isNew ? fresh : old).add(preDeleting, toDelete, unavailable);
        }
        int newCount = fresh.count, newActive = fresh.active, newUnavailable = fresh.unavailable;
        int newToDelete = fresh.toDelete, newPreDeleting = fresh.preDeleting;
        int oldCount = old.count, oldActive = old.active, oldUnavailable = old.unavailable;
        int oldToDelete = old.toDelete, oldPreDeleting = old.preDeleting;

        int partition = limits.partition;
        int updateOldDiff = oldActive - partition;
        int updateNewDiff = newActive - (replicas - partition);
        int totalUnavailable = newPreDeleting + oldPreDeleting + newUnavailable + oldUnavailable;
        // Without rollback (or with nothing to roll back to) pods only ever move to the update revision.
        if (updateRevision.equals(currentRevision) || !rollbackEnabled) {
            updateOldDiff = Math.max(updateOldDiff, 0);
            updateNewDiff = Math.min(updateNewDiff, 0);
        }

        int useSurge = 0, useSurgeOld = 0;
        if (limits.maxSurge > 0) {
            // Surge replaces pods specified for deletion that could not go without breaking maxUnavailable...
            int scaleSurge = 0, scaleOldSurge = 0;
            int toDelete = newToDelete + oldToDelete;
            if (toDelete > 0) {
                scaleSurge = Math.min(Math.max(totalUnavailable + toDelete - limits.maxUnavailable, 0), toDelete);
                if (scaleSurge > newToDelete) {
                    scaleOldSurge = scaleSurge - newToDelete;
                }
            }
            // ...or carries pods between revisions.
            int updateSurge = 0, updateOldSurge = 0;
            if ((updateOldDiff > 0 && updateNewDiff < 0) || (updateOldDiff < 0 && updateNewDiff > 0)) {
                if (Math.abs(updateOldDiff) <= Math.abs(updateNewDiff)) {
                    updateSurge = Math.abs(updateOldDiff);
                    if (updateOldDiff < 0) {
                        updateOldSurge = updateSurge;
                    }
                } else {
                    updateSurge = Math.abs(updateNewDiff);
                    if (updateNewDiff > 0) {
                        updateOldSurge = updateSurge;
                    }
                }
            }
            // One reconcile either scales or updates, so the larger need decides.
            if (scaleSurge >= updateSurge) {
                useSurge = Math.min(limits.maxSurge, scaleSurge);
                useSurgeOld = Math.min(useSurge, scaleOldSurge);
            } else {
                useSurge = Math.min(limits.maxSurge, updateSurge);
                useSurgeOld = Math.min(useSurge, updateOldSurge);
            }
        }

        // In long: replicas (or partition) near Integer.MAX_VALUE plus a surge, or a maxUnavailable near it plus the
        // pods above replicas, would wrap around to a negative number, and a negative expected total reads as a
        // scale-down of every pod.
        long currentTotal = pods.size();
        long currentTotalOld = oldCount;
        if (excludePreparingDeleteForAll || excludesPreparingDelete(cs)) {
            currentTotal -= oldPreDeleting + newPreDeleting;
            currentTotalOld -= oldPreDeleting;
        }
        long expectedTotal = (long) replicas + useSurge;
        long expectedTotalOld = (long) partition + useSurgeOld;

        long scaleUpNum = 0, scaleUpOld = 0, scaleUpLimit = 0, scaleDownNum = 0, scaleDownOld = 0, deleteReadyLimit = 0;
        if (expectedTotal - currentTotal > 0) {
            scaleUpNum = expectedTotal - currentTotal;
            scaleUpOld = Math.max(expectedTotalOld - currentTotalOld, 0);
            scaleUpLimit = Math.min(scaleUpNum, Math.max((long) limits.scaleMaxUnavailable - totalUnavailable, 0));
        }
        // Pods already specified for deletion are on their way out and are not counted again.
        long down = currentTotal - oldToDelete - newToDelete - expectedTotal;
        if (down > 0) {
            scaleDownNum = down;
            scaleDownOld = Math.max(currentTotalOld - oldToDelete - expectedTotalOld, 0);
        }
        if (newToDelete > 0 || oldToDelete > 0 || scaleDownNum > 0) {
            deleteReadyLimit = Math.max((long) limits.maxUnavailable + ((long) pods.size() - replicas) - totalUnavailable,
                    0);
        }

        int updateNum = Math.abs(updateOldDiff) <= Math.abs(updateNewDiff) ? updateOldDiff : -updateNewDiff;
        long updateMaxUnavailable = updateNum != 0 ? (long) limits.maxUnavailable + pods.size() - replicas : 0;

        return new CloneSetDiff(saturated(scaleUpNum), saturated(scaleUpOld), saturated(scaleDownNum),
                saturated(scaleDownOld), saturated(scaleUpLimit), saturated(deleteReadyLimit), useSurge,
                useSurgeOld, updateNum, saturated(updateMaxUnavailable));
    }

    /** The int nearest to {@code n}: a count past the int range is as good as unlimited. */
    private static int saturated(long n) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, n));
    }

    /** Named by {@code scaleStrategy.podsToDelete} or labelled {@code apps.kruise.io/specified-delete}. */
    public static boolean isSpecifiedDelete(CloneSet cs, Pod pod) {
        if (Pods.labels(pod).containsKey(WellKnown.SPECIFIED_DELETE_LABEL)) {
            return true;
        }
        CloneSetScaleStrategy scale = cs.getSpec().getScaleStrategy();
        return scale != null && scale.getPodsToDelete() != null
                && scale.getPodsToDelete().contains(pod.getMetadata().getName());
    }

    /** The v1.3 label: pods in PreparingDelete do not count towards replicas. */
    public static boolean excludesPreparingDelete(CloneSet cs) {
        Map<String, String> labels = cs.getMetadata() == null ? null : cs.getMetadata().getLabels();
        return labels != null && "true".equals(labels.get(WellKnown.CLONESET_SCALING_EXCLUDE_PREPARING_DELETE_LABEL));
    }

    /** The resolved numbers of the strategy fields, with OpenKruise's defaults and rounding. */
    public record Limits(int replicas, int partition, int maxSurge, int maxUnavailable, int scaleMaxUnavailable) {
        public static Limits of(CloneSet cs) {
            Integer r = cs.getSpec().getReplicas();
            int replicas = r == null ? 1 : r;
            CloneSetUpdateStrategy us = cs.getSpec().getUpdateStrategy();
            IntOrString partitionField = us == null ? null : us.getPartition();
            IntOrString surgeField = us == null ? null : us.getMaxSurge();
            IntOrString unavailableField = us == null ? null : us.getMaxUnavailable();
            int partition = PartitionCalculator.partition(partitionField, replicas);
            int maxSurge = 0;
            if (surgeField != null) {
                maxSurge = us.isPaused() ? 0 : IntOrPercent.scaledValue(surgeField, replicas, true);
            }
            // With surge available, maxUnavailable rounds down, as Deployment does.
            int maxUnavailable = IntOrPercent.scaledValue(unavailableField == null
                    ? new IntOrString(WellKnown.DEFAULT_CLONESET_MAX_UNAVAILABLE) : unavailableField, replicas, maxSurge == 0);
            CloneSetScaleStrategy ss = cs.getSpec().getScaleStrategy();
            int scaleMaxUnavailable = ss == null || ss.getMaxUnavailable() == null ? Integer.MAX_VALUE
                    : IntOrPercent.scaledValue(ss.getMaxUnavailable(), replicas, true);
            return new Limits(replicas, partition, maxSurge, maxUnavailable, scaleMaxUnavailable);
        }
    }

    /** The pods of one side (update revision or not), counted the way the diff needs them. */
    private static final class Tally {
        int count;
        int active;
        int preDeleting;
        int toDelete;
        int unavailable;

        void add(boolean isPreDeleting, boolean isToDelete, boolean isUnavailable) {
            count++;
            if (isPreDeleting) {
                preDeleting++;
            } else {
                active++;
            }
            toDelete += isToDelete ? 1 : 0;
            unavailable += isUnavailable ? 1 : 0;
        }
    }
}
