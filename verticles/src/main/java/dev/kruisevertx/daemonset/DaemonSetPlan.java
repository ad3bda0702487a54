package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSetStatus;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.reason.BlockReason;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One DaemonSet decision: the pods to create (one per node name), delete, mark PreparingDelete (held by the preDelete
 * hook) or update in place, the status it leads to, and why. Pure data; the actuator applies it.
 *
 * @param phase             which step of the sync decided
 * @param reason            why the plan is what it is ("nothing to do", "paused", "waiting for ..."), one line
 * @param createOnNodes     nodes that get a new pod at the update revision
 * @param deletions         pods to delete
 * @param prepareDelete     pods the preDelete hook holds: set to PreparingDelete instead of deleted
 * @param inPlaceUpdates    old pods updated in place to the update revision
 * @param status            the status computed from the snapshot
 * @param syncedGeneration  whether the whole sync ran, so status.observedGeneration may move to the set's generation
 * @param requeueAfter      when to look again without an event (minReadySeconds passing), zero for never
 * @param counts            named counts the decision was made from (desired, maxUnavailable, ...)
 * @param reasons           what held back pods the spec asks to create, delete or update (partition, paused,
 *                          maxUnavailable, maxSurge, the preDelete hook, the pods' own state), for
 *                          {@code kubectl kruise why}
 */
public record DaemonSetPlan(Phase phase, String reason, List<String> createOnNodes, List<Deletion> deletions,
                            List<Pod> prepareDelete, List<Pod> inPlaceUpdates, DaemonSetStatus status,
                            boolean syncedGeneration, Duration requeueAfter, Map<String, Long> counts,
                            List<BlockReason> reasons) {

    /** Which step decided. */
    public enum Phase {
        /** Nothing was decided: the set is being deleted or selects every pod. */
        SKIPPED,
        /** Pods created or deleted so every eligible node runs one pod (and only those nodes). */
        MANAGE,
        /** One step of a rolling update. */
        ROLLING_UPDATE,
        /** Every node is as it should be, or the update waits (paused, OnDelete, limits). */
        STEADY
    }

    /** Why a pod is deleted. */
    public enum DeleteReason {
        /** The pod failed; a new one replaces it. */
        FAILED,
        /** The pod was set to PreparingDelete and its preDelete hook let it go. */
        PREPARING_DELETE,
        /** More than one pod on the node (no surge): all but the oldest go. */
        EXCESS,
        /** The node no longer fits the template (selector, affinity, NoExecute taint, another nodeName). */
        NODE_NOT_ELIGIBLE,
        /** The pod targets a node that does not exist and was never scheduled. */
        NODE_GONE,
        /** Surge: the new pod on the node is available (or the old one is not ready), the old one goes. */
        SURGE_REPLACED,
        /** Rolling update within maxUnavailable: the old pod goes and a new one follows. */
        ROLLING_UPDATE
    }

    /** A pod to delete, the node it is for and why. */
    public record Deletion(Pod pod, String node, DeleteReason reason) {
    }

    public DaemonSetPlan {
        counts = Map.copyOf(counts);
        reasons = reasons == null ? List.of() : List.copyOf(reasons);
    }

    /** This plan with {@code more} reasons after its own. */
    public DaemonSetPlan withReasons(List<BlockReason> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<BlockReason> all = new java.util.ArrayList<>(reasons);
        all.addAll(more);
        return new DaemonSetPlan(phase, reason, createOnNodes, deletions, prepareDelete, inPlaceUpdates, status,
                syncedGeneration, requeueAfter, counts, all);
    }

    /** True when the plan writes nothing but the status. */
    public boolean statusOnly() {
        return createOnNodes.isEmpty() && deletions.isEmpty() && prepareDelete.isEmpty() && inPlaceUpdates.isEmpty();
    }

    /** Names, counts and reasons only, for {@code /debug/plans}. */
    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(phase + ": " + reason);
        new TreeMap<>(counts).forEach(b::count);
        b.count("create", createOnNodes.size()).count("delete", deletions.size())
                .count("prepareDelete", prepareDelete.size()).count("inPlaceUpdate", inPlaceUpdates.size());
        if (!requeueAfter.isZero()) {
            b.count("requeueAfterSeconds", requeueAfter.toSeconds());
        }
        createOnNodes.forEach(n -> b.action("create pod on node " + n));
        deletions.forEach(d -> b.action("delete pod " + d.pod().getMetadata().getName() + " on node " + d.node()
                + " (" + d.reason() + ")"));
        prepareDelete.forEach(p -> b.action("set lifecycle state of pod " + p.getMetadata().getName()
                + " to PreparingDelete (preDelete hook)"));
        inPlaceUpdates.forEach(p -> b.action("update pod " + p.getMetadata().getName() + " in place"));
        b.reasons(reasons);
        return b.build();
    }
}
