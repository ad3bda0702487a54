package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetSpec;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateDaemonSet;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateType;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.HookReasons;
import dev.kruisevertx.controller.reason.PodBlockers;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.daemonset.DaemonSetPlan.Deletion;
import dev.kruisevertx.daemonset.DaemonSetPlan.Phase;
import dev.kruisevertx.lifecycle.LifecycleTransitions;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.scheduling.DaemonPlacement;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Advanced DaemonSet decision (upstream's syncDaemonSet without its API calls): the manage step first; when it
 * has nothing to do, one rolling update step (unless paused or OnDelete); then the status. Deletions pass the preDelete
 * hook, and creations and deletions are each capped at burstReplicas. Pure: cache objects and a clock in, a plan out.
 */
public final class DaemonSetPlanner {
    /** OpenKruise's burstReplicas when unset. */
    static final int DEFAULT_BURST_REPLICAS = 250;
    /** Where the rolling update's knobs live, as reasons name them. */
    private static final String FIELD = "updateStrategy.rollingUpdate.";

    private DaemonSetPlanner() {
    }

    public static DaemonSetPlan decide(DaemonSetSnapshot snap) {
        DaemonSet set = snap.set();
        DaemonSetSpec spec = set.getSpec();
        Map<String, Long> counts = new LinkedHashMap<>();
        if (set.getMetadata().getDeletionTimestamp() != null) {
            return skipped("the DaemonSet is being deleted", counts);
        }
        if (spec == null || spec.getTemplate() == null || spec.getSelector() == null || selectsEverything(set)) {
            return skipped("the DaemonSet selects every pod; a non-empty selector is required", counts);
        }
        PodSpec template = spec.getTemplate().getSpec() == null ? new PodSpec() : spec.getTemplate().getSpec();
        DaemonNodes nodes = new DaemonNodes(DaemonPlacement.of(template), snap.nodes(), snap.pods(),
                spec.getMinReadySeconds(), snap.now());
        int desired = nodes.desired();
        counts.put("nodes", (long) nodes.nodes.size());
        counts.put("desired", (long) desired);
        counts.put("podsWithoutNode", (long) nodes.podsWithoutNode);
        boolean rolling = spec.getUpdateStrategy() != null
                && spec.getUpdateStrategy().typeValue().orElse(null) == DaemonSetUpdateStrategyType.ROLLING_UPDATE;
        RollingUpdateDaemonSet ru = rolling ? spec.getUpdateStrategy().getRollingUpdate() : null;
        boolean surge = rolling && DaemonSetUpdatePlanner.limits(set, 1).maxSurge() > 0;

        DaemonSetManagePlanner.Result manage = DaemonSetManagePlanner.plan(set, nodes, snap.updateRevision(), surge, snap.now(),
                snap.failedPodBackoff());
        int burst = burstReplicas(set);
        counts.put("burstReplicas", (long) burst);
        Hooked manageHooked = throughPreDelete(set, manage.deletions());
        if (!manage.createOnNodes().isEmpty() || !manageHooked.delete.isEmpty() || !manageHooked.prepare.isEmpty()) {
            List<String> create = cap(manage.createOnNodes(), burst);
            List<Deletion> delete = cap(manageHooked.delete, burst);
            counts.put("createWanted", (long) manage.createOnNodes().size());
            counts.put("deleteWanted", (long) manageHooked.delete.size());
            var status = DaemonSetStatusCalculator.calculate(set, nodes, snap.updateRevision(), false, snap.now());
            List<BlockReason> reasons = new ArrayList<>(heldByPreDelete(set, snap.pods()));
            reasons.addAll(heldByPreDelete(set, snap.pods()));
        reasons.addAll(PodBlockers.of(snap.pods(), spec.getMinReadySeconds(), snap.now()));
            return new DaemonSetPlan(Phase.MANAGE, "placing pods: " + create.size() + " to create, " + delete.size()
                    + " to delete, " + manageHooked.prepare.size() + " held by the preDelete hook",
                    create, delete, manageHooked.prepare, List.of(), status.status(), false,
                    min(manage.requeueAfter(), status.requeueAfter()), counts, reasons);
        }
        String reason;
        List<String> create = List.of();
        List<Deletion> delete = List.of();
        List<Pod> prepare = List.of();
        List<Pod> inPlace = List.of();
        List<BlockReason> reasons = new ArrayList<>();
        int updated = 0;
        for (String n : nodes.nodes.keySet()) {
            List<Pod> pods = nodes.podsOn(n);
            if (nodes.shouldRun(n) && !pods.isEmpty() && Pods.atRevision(pods.get(0), snap.updateRevision())) {
                updated++;
            }
        }
        if (!rolling) {
            reason = "OnDelete: pods are updated only when deleted";
        } else if (ru != null && ru.pausedValue()) {
            reason = "the rolling update is paused";
            if (desired > updated) {
                reasons.add(Reasons.paused(FIELD + "paused", desired - updated));
            }
        } else {
            DaemonSetUpdatePlanner.Result step = DaemonSetUpdatePlanner.plan(set, nodes, snap.updateRevision(),
                    snap.pruneIneligibleNodes());
            counts.put("maxUnavailable", (long) step.limits().maxUnavailable());
            counts.put("maxSurge", (long) step.limits().maxSurge());
            counts.put("partition", (long) step.limits().partition());
            counts.put("updatableNodes", (long) step.updatable());
            counts.put(step.limits().maxSurge() > 0 ? "surging" : "unavailable", (long) step.unavailable());
            List<Deletion> deletions = new ArrayList<>(step.deletions());
            List<Pod> updates = new ArrayList<>();
            boolean inPlacePolicy = ru != null && ru.rollingUpdateTypeValue().orElse(null) == RollingUpdateType.IN_PLACE_IF_POSSIBLE;
            for (Pod p : step.replace()) {
                String node = DaemonPlacement.targetNode(p.getSpec()).orElse("");
                if (inPlacePolicy && snap.canUpdateInPlace().test(p)) {
                    updates.add(p);
                } else {
                    deletions.add(new Deletion(p, node, DaemonSetPlan.DeleteReason.ROLLING_UPDATE));
                }
            }
            Hooked hooked = throughPreDelete(set, deletions);
            create = cap(step.createOnNodes(), burst);
            delete = cap(hooked.delete, burst);
            prepare = hooked.prepare;
            inPlace = updates;
            long kept = Math.min(step.limits().partition(), Math.max(desired - updated, 0));
            if (kept > 0) {
                reasons.add(Reasons.partition(FIELD + "partition", step.limits().partition(), kept));
            }
            if (step.waiting() > 0 && step.limits().maxSurge() > 0) {
                reasons.add(Reasons.maxSurge(FIELD + "maxSurge", step.limits().maxSurge(), step.holding(),
                        step.budgetUsed(), step.waiting(), "updated"));
            } else if (step.waiting() > 0) {
                reasons.add(Reasons.maxUnavailable(FIELD + "maxUnavailable", step.limits().maxUnavailable(),
                        step.holding(), step.budgetUsed(), step.waiting(), "updated"));
            }
            if (create.isEmpty() && delete.isEmpty() && prepare.isEmpty() && inPlace.isEmpty()) {
                reason = updated == desired ? "every node runs the update revision"
                        : step.updatable() == 0 || updated + step.limits().partition() >= desired
                        ? "the rest of the nodes are kept by the partition or the update's node selector"
                        : "waiting for updated pods to become available (maxUnavailable " + step.limits().maxUnavailable()
                        + ", maxSurge " + step.limits().maxSurge() + ")";
            } else {
                reason = "rolling update: " + create.size() + " surge pods, " + delete.size() + " to delete, "
                        + inPlace.size() + " in place, " + prepare.size() + " held by the preDelete hook";
            }
        }
        var status = DaemonSetStatusCalculator.calculate(set, nodes, snap.updateRevision(), true, snap.now());
        boolean acts = !create.isEmpty() || !delete.isEmpty() || !prepare.isEmpty() || !inPlace.isEmpty();
        reasons.addAll(heldByPreDelete(set, snap.pods()));
        reasons.addAll(PodBlockers.of(snap.pods(), spec.getMinReadySeconds(), snap.now()));
        Duration requeue = min(manage.requeueAfter(), status.requeueAfter());
        if (acts) {
            return new DaemonSetPlan(Phase.ROLLING_UPDATE, reason, create, delete, prepare, inPlace, status.status(),
                    true, requeue, counts, reasons);
        }
        return new DaemonSetPlan(Phase.STEADY, reason, List.of(), List.of(), List.of(), List.of(), status.status(), true,
                requeue, counts, reasons);
    }

    private static DaemonSetPlan skipped(String reason, Map<String, Long> counts) {
        return new DaemonSetPlan(Phase.SKIPPED, reason, List.of(), List.of(), List.of(), List.of(), null, false,
                Duration.ZERO, counts, List.of());
    }

    private static boolean selectsEverything(DaemonSet set) {
        var s = set.getSpec().getSelector();
        return (s.getMatchLabels() == null || s.getMatchLabels().isEmpty())
                && (s.getMatchExpressions() == null || s.getMatchExpressions().isEmpty());
    }

    static int burstReplicas(DaemonSet set) {
        var v = set.getSpec().getBurstReplicas();
        if (v == null) {
            return DEFAULT_BURST_REPLICAS;
        }
        int lastDesired = set.getStatus() == null ? 0 : set.getStatus().getDesiredNumberScheduled();
        try {
            return Math.max(IntOrPercent.scaledValue(v, lastDesired, false), 0);
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    private record Hooked(List<Deletion> delete, List<Pod> prepare) {
    }

    /** Deletions the preDelete hook holds become PreparingDelete marks (none for a pod already marked). */
    private static Hooked throughPreDelete(DaemonSet set, List<Deletion> deletions) {
        var lifecycle = set.getSpec().getLifecycle();
        if (lifecycle == null || lifecycle.getPreDelete() == null) {
            return new Hooked(deletions, List.of());
        }
        List<Deletion> delete = new ArrayList<>();
        List<Pod> prepare = new ArrayList<>();
        for (Deletion d : deletions) {
            if (LifecycleTransitions.beforeDelete(d.pod(), lifecycle) == LifecycleTransitions.DeleteStep.DELETE) {
                delete.add(d);
            } else if (!Pods.isPreparingDelete(d.pod())) {
                prepare.add(d.pod());
            }
        }
        return new Hooked(delete, prepare);
    }

    /** Pods of {@code pods} already PreparingDelete that the preDelete hook still holds, as reasons. */
    static List<BlockReason> heldByPreDelete(DaemonSet set, List<Pod> pods) {
        var lifecycle = set.getSpec().getLifecycle();
        if (lifecycle == null || lifecycle.getPreDelete() == null) {
            return List.of();
        }
        List<BlockReason> out = new ArrayList<>();
        for (Pod p : pods) {
            if (Pods.isPreparingDelete(p) && !Pods.isTerminating(p)
                    && LifecycleTransitions.beforeDelete(p, lifecycle) != LifecycleTransitions.DeleteStep.DELETE) {
                out.add(HookReasons.of(p, "preDelete", lifecycle.getPreDelete()));
            }
        }
        return out;
    }

    private static <T> List<T> cap(List<T> list, int max) {
        return list.size() <= max ? list : new ArrayList<>(list.subList(0, max));
    }

    private static Duration min(Duration a, Duration b) {
        if (a.isZero()) {
            return b;
        }
        if (b.isZero()) {
            return a;
        }
        return a.compareTo(b) <= 0 ? a : b;
    }
}
