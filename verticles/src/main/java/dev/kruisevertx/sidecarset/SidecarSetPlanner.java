package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetStatus;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategyType;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.Reasons;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The decision of one SidecarSet reconcile, pure (OpenKruise v1.9's {@code UpdateSidecarSet}): register the latest
 * revision, compute the status, and unless the cache has not shown our last pod writes yet, the strategy is NotUpdate
 * or paused: first finish hot upgrades (idle containers back to the empty image), else upgrade the next pods in place
 * ({@link SidecarUpgradeSelection}: partition, maxUnavailable, selector, priority, scatter).
 */
final class SidecarSetPlanner {
    /** OpenKruise looks again after a second while its own pod writes are not in the cache. */
    static final Duration EXPECTATION_RECHECK = Duration.ofSeconds(1);

    private SidecarSetPlanner() {
    }

    /**
     * @param set       the cached SidecarSet
     * @param pods      its matched pods (active, injected by it, carrying its sidecars)
     * @param revisions its ControllerRevisions
     * @param namespace where its revisions live (the manager's namespace)
     * @param pending   names of matched pods whose last write by this controller the cache has not shown yet
     */
    static SidecarSetPlan decide(SidecarSet set, List<Pod> pods, List<ControllerRevision> revisions, String namespace,
                                 List<String> pending) {
        SidecarSetRevisions.Resolution resolution = SidecarSetRevisions.resolve(set, revisions, namespace);
        List<ControllerRevision> prune = SidecarSetRevisions.toPrune(set, resolution.history(), pods);
        SidecarSetStatus status = SidecarSetStatusCalculation.of(set, pods, resolution.latest().getMetadata().getName(),
                resolution.collisionCount());
        SidecarSet target = ApiJson.serialization().clone(set);
        target.setStatus(status);
        SidecarSetStatus write = changed(set.getStatus(), status) ? status : null;
        if (!pending.isEmpty()) {
            return plan(target, resolution, prune, write, List.of(), List.of(), List.of(), EXPECTATION_RECHECK,
                    "waiting for the cache to show our pod updates",
                    List.of(Reasons.expectations("pod updates", pending)));
        }
        var strategy = set.getSpec().getUpdateStrategy();
        boolean notUpdate = strategy != null && strategy.typeValue().orElse(null) == SidecarSetUpdateStrategyType.NOT_UPDATE;
        boolean paused = strategy != null && Boolean.TRUE.equals(strategy.getPaused());
        if (notUpdate || paused) {
            // The selection words the reason (NotUpdate, or paused with the pods that wait).
            SidecarUpgradeSelection.Plan selection = SidecarUpgradeSelection.next(target, pods);
            return plan(target, resolution, prune, write, List.of(), List.of(), List.of(), null, selection.reason(),
                    selection.reasons());
        }
        List<Pod> resets = new ArrayList<>();
        if (hasHotUpgrade(set)) {
            Set<String> sidecars = SidecarPodState.sidecarNamesInPod(set);
            for (Pod pod : pods) {
                Set<String> working = new TreeSet<>(sidecars);
                working.removeAll(SidecarPodState.idleContainers(pod, set).keySet());
                if (SidecarPodState.inHotUpgrading(pod, set) && SidecarPodState.consistent(pod, set, working)
                        && SidecarPodState.hotUpgradingReady(pod, set)) {
                    resets.add(pod);
                }
            }
            if (!resets.isEmpty()) {
                return plan(target, resolution, prune, write, resets, List.of(), List.of(), null,
                        "hot upgrade done in " + resets.size() + " pod(s): idle containers back to the empty image",
                        List.of());
            }
        }
        if (status.getUpdatedPods() >= status.getMatchedPods()) {
            return plan(target, resolution, prune, write, List.of(), List.of(), List.of(), null,
                    "every matched pod runs the latest sidecars", List.of());
        }
        SidecarUpgradeSelection.Plan selection = SidecarUpgradeSelection.next(target, pods);
        return plan(target, resolution, prune, write, List.of(), selection.upgrade(), selection.notUpgradable(), null,
                selection.reason(), selection.reasons());
    }

    private static SidecarSetPlan plan(SidecarSet target, SidecarSetRevisions.Resolution resolution,
                                       List<ControllerRevision> prune, SidecarSetStatus write, List<Pod> resets,
                                       List<Pod> upgrades, List<Pod> notUpgradable, Duration requeue, String reason,
                                       List<BlockReason> reasons) {
        return new SidecarSetPlan(target, resolution, prune, write, resets, upgrades, notUpgradable, requeue, reason,
                reasons);
    }

    static boolean hasHotUpgrade(SidecarSet set) {
        for (SidecarContainer c : SidecarPodState.containers(set)) {
            if (SidecarPodState.isHotUpgrade(c)) {
                return true;
            }
        }
        return false;
    }

    /** OpenKruise's inconsistentStatus: a newer generation or any count, the revision or the collision count differ. */
    static boolean changed(SidecarSetStatus old, SidecarSetStatus now) {
        if (old == null) {
            return true;
        }
        return (now.getObservedGeneration() != null && (old.getObservedGeneration() == null
                || now.getObservedGeneration() > old.getObservedGeneration()))
                || !Objects.equals(old.getMatchedPods(), now.getMatchedPods())
                || !Objects.equals(old.getUpdatedPods(), now.getUpdatedPods())
                || !Objects.equals(old.getReadyPods(), now.getReadyPods())
                || !Objects.equals(old.getUpdatedReadyPods(), now.getUpdatedReadyPods())
                || !Objects.equals(old.getLatestRevision(), now.getLatestRevision())
                || !Objects.equals(old.getCollisionCount(), now.getCollisionCount());
    }
}
