package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategyType;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cloneset.CloneSetPlan.Phase;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.inplace.InPlaceUpdateCalculator;
import dev.kruisevertx.inplace.InPlaceUpdateOptions;
import dev.kruisevertx.inplace.InPlaceUpdateSpec;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.inplace.RefreshOutcome;
import dev.kruisevertx.inplace.RevisionLabels;
import dev.kruisevertx.lifecycle.LifecycleTransitions;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.updatesort.PrioritySorter;
import dev.kruisevertx.updatesort.ScatterSorter;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The update half of a CloneSet decision ({@link CloneSetPlanner#plan}), made only when scaling has nothing to do:
 * refresh pod states (lifecycle, in-place updates in flight), then move pods between revisions within partition and
 * maxUnavailable, in place when the strategy and the change allow it, else by marking them for recreation. Pure: it
 * reads the snapshot and returns a plan.
 */
final class CloneSetUpdatePlanner {
    private CloneSetUpdatePlanner() {
    }

    static CloneSetPlan planUpdate(CloneSetPlanner.State s, CloneSetPlan scale) {
        CloneSet cs = s.cs();
        CloneSetUpdateStrategy us = cs.getSpec().getUpdateStrategy();
        int minReady = cs.getSpec().getMinReadySeconds();
        Lifecycle lifecycle = cs.getSpec().getLifecycle();

        // 1. Refresh pod states: lifecycle (preNormal, after an update) and in-place updates in flight.
        CloneSetPlan.Builder b = CloneSetPlan.builder(Phase.UPDATE, scale.diff());
        InPlaceUpdater updater = new InPlaceUpdater(RevisionLabels.cloneSet(s.options().shortHash()));
        for (Pod p : s.pods()) {
            RefreshOutcome r = updater.refresh(p, s.now());
            // Pods created before OpenKruise v1.1 lack pod-template-hash; it is added with the refresh.
            boolean missingHash = !Pods.labels(p).containsKey(WellKnown.POD_TEMPLATE_HASH_LABEL);
            switch (r.action()) {
                case UPDATE_POD -> b.podWrites.add(new CloneSetPlan.PodWrite(p, missingHash ? withTemplateHash(r.pod()) : r.pod()));
                case UPDATE_STATUS -> {
                    // The label goes first as a pod patch; the status write then starts from the live pod.
                    if (missingHash) {
                        b.podWrites.add(new CloneSetPlan.PodWrite(p, withTemplateHash(p)));
                    }
                    b.statusWrites.add(p);
                }
                case NONE -> {
                    b.requeueWithin(r.requeue());
                    Optional<LifecycleState> next = LifecycleTransitions.onRefresh(p, lifecycle,
                            Pods.atRevision(p, s.updateRevision()), updater.checkCompleted(p).done());
                    if (next.isPresent() && !next.get().value().equals(Pods.lifecycleState(p))) {
                        // The label waits for the next reconcile: a patch after the lifecycle write would carry a
                        // stale resourceVersion.
                        b.lifecycle.add(new CloneSetPlan.LifecycleChange(p, next.get(),
                                LifecycleTransitions.refreshMarkPodNotReady(lifecycle)));
                    } else if (missingHash) {
                        b.podWrites.add(new CloneSetPlan.PodWrite(p, withTemplateHash(p)));
                    }
                }
                case ERROR -> b.requeueWithin(Duration.ofSeconds(30));
            }
        }
        if (b.hasActions()) {
            return b.build("refresh pod states");
        }
        if (us != null && us.isPaused()) {
            long waiting = s.pods().stream().filter(p -> !Pods.atRevision(p, s.updateRevision())).count();
            if (waiting > 0) {
                b.reasons.add(Reasons.paused("updateStrategy.paused", waiting));
            }
            return b.build("updateStrategy.paused");
        }
        // A grace period running out is no event either: whatever the update step decides, keep its look.
        Duration refreshRequeue = b.requeueAfter;

        CloneSetDiff diff = CloneSetDiff.calculate(cs, s.pods(), s.currentRevision(), s.updateRevision(),
                s.options().partitionRollback(), CloneSetDiff.AT_REVISION, s.now(),
                s.options().scalingExcludePreparingDelete());
        b = CloneSetPlan.builder(Phase.UPDATE, diff);
        b.requeueWithin(refreshRequeue);
        int partition = CloneSetDiff.Limits.of(cs).partition();
        long notUpdated = s.pods().stream().filter(p -> !Pods.atRevision(p, s.updateRevision())).count();
        long kept = notUpdated - Math.max(0, diff.updateNum());
        if (partition > 0 && kept > 0) {
            b.reasons.add(Reasons.partition("updateStrategy.partition", partition, kept));
        }
        if (diff.updateNum() == 0) {
            return b.build(scale.reason() + "; revisions as partition wants");
        }
        boolean forward = diff.updateNum() > 0;
        String target = forward ? s.updateRevision() : s.currentRevision();

        // 2. Candidates: pods not yet at the target, not on their way out.
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < s.pods().size(); i++) {
            Pod p = s.pods().get(i);
            boolean atUpdate = Pods.atRevision(p, s.updateRevision());
            boolean waiting = forward != atUpdate;
            if (waiting && !Pods.isPreparingDelete(p) && !CloneSetDiff.isSpecifiedDelete(cs, p)
                    && (WellKnown.LIFECYCLE_STATE_UPDATED.equals(Pods.lifecycleState(p)) || !inGracePeriod(p))) {
                candidates.add(i);
            }
        }

        // 3. Order: the default pod order, then priority, then scatter; pods in PreparingUpdate go first.
        candidates = sortForUpdate(s.pods(), candidates, us);

        // 4. Within |updateNum| and maxUnavailable, in all revisions and in the target revision.
        List<Pod> chosen = limit(s, diff, candidates, target, minReady);
        int max = Math.abs(diff.updateNum());
        if (chosen.size() < max && candidates.size() > chosen.size()) {
            // The budget is maxUnavailable plus maxSurge: name the one the user set (both when both are set).
            CloneSetDiff.Limits limits = CloneSetDiff.Limits.of(cs);
            int waiting = Math.min(max, candidates.size()) - chosen.size();
            String action = forward ? "updated" : "rolled back";
            if (limits.maxSurge() > 0) {
                b.reasons.add(CloneSetReasons.maxSurge(cs, s.pods(), target, limits.maxSurge(), waiting, action,
                        minReady, s.now()));
            }
            if (limits.maxUnavailable() > 0 || limits.maxSurge() == 0) {
                b.reasons.add(CloneSetReasons.maxUnavailable("updateStrategy.maxUnavailable", limits.maxUnavailable(),
                        CloneSetReasons.unavailable(cs, s.pods(), minReady, s.now()), waiting, action));
            }
        }

        CloneSetUpdateStrategyType type = us == null ? CloneSetUpdateStrategyType.RECREATE
                : us.typeValue().orElse(CloneSetUpdateStrategyType.RECREATE);
        ControllerRevision targetRevision = revisionNamed(s.revisions(), target);
        InPlaceUpdateOptions inPlaceOptions = new InPlaceUpdateOptions(
                us != null && us.getInPlaceUpdateStrategy() != null ? us.getInPlaceUpdateStrategy().getGracePeriodSeconds() : 0,
                s.options().envFromMetadata(), null);
        int cannot = 0;
        for (Pod p : chosen) {
            if (type != CloneSetUpdateStrategyType.RECREATE) {
                InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(revisionOf(s.revisions(), p), targetRevision,
                        inPlaceOptions);
                if (spec != null) {
                    switch (LifecycleTransitions.beforeInPlaceUpdate(p, lifecycle)) {
                        case UPDATE -> b.inPlace.add(new CloneSetPlan.InPlace(p, spec));
                        case TO_PREPARING_UPDATE, TO_PREPARING_UPDATE_WITH_HANDLER -> b.lifecycle.add(
                                new CloneSetPlan.LifecycleChange(p, LifecycleState.PREPARING_UPDATE,
                                        LifecycleTransitions.inPlaceUpdateMarkPodNotReady(lifecycle)));
                        case WAIT -> b.reasons.add(CloneSetReasons.hook(p, "inPlaceUpdate", lifecycle.getInPlaceUpdate()));
                        case NOT_ALLOWED -> {
                            // In a lifecycle state that cannot be updated (PreparingDelete, Updating...).
                        }
                    }
                    continue;
                }
                if (type == CloneSetUpdateStrategyType.IN_PLACE_ONLY) {
                    cannot++;
                    continue;
                }
            }
            b.recreates.add(p);
        }
        String how = type == CloneSetUpdateStrategyType.RECREATE ? "recreating" : "in place or recreating";
        return b.build((forward ? "update " : "roll back ") + chosen.size() + " of " + Math.abs(diff.updateNum())
                + " pods by " + how + (cannot > 0 ? "; InPlaceOnly: " + cannot + " cannot be updated in place" : ""));
    }

    /** A copy with {@code pod-template-hash} set to the short form of the pod's revision label. */
    private static Pod withTemplateHash(Pod p) {
        String revision = Pods.revisionLabel(p);
        return new io.fabric8.kubernetes.api.model.PodBuilder(p).editMetadata()
                .addToLabels(WellKnown.POD_TEMPLATE_HASH_LABEL, revision == null ? "" : Pods.shortHash(revision))
                .endMetadata().build();
    }

    /** An in-place update still waits out its grace period (the pod carries the grace annotation). */
    private static boolean inGracePeriod(Pod p) {
        Map<String, String> a = Pods.annotations(p);
        return notEmpty(a.get(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION))
                || notEmpty(a.get(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION_OLD));
    }

    private static boolean notEmpty(String s) {
        return s != null && !s.isEmpty();
    }

    static ControllerRevision revisionNamed(List<ControllerRevision> revisions, String name) {
        for (ControllerRevision r : revisions) {
            if (r.getMetadata().getName().equals(name)) {
                return r;
            }
        }
        return null;
    }

    /** The revision a pod is at, by its label (long or short form). */
    static ControllerRevision revisionOf(List<ControllerRevision> revisions, Pod pod) {
        for (ControllerRevision r : revisions) {
            if (Pods.atRevision(pod, r.getMetadata().getName())) {
                return r;
            }
        }
        return null;
    }

    static List<Integer> sortForUpdate(List<Pod> pods, List<Integer> indexes, CloneSetUpdateStrategy us) {
        List<Integer> sorted = new PodDeletionOrder(null, null).sortIndexes(pods, indexes);
        if (us != null && us.getPriorityStrategy() != null) {
            sorted = new PrioritySorter(us.getPriorityStrategy()).sort(pods, sorted);
        }
        if (us != null && us.getScatterStrategy() != null && !us.getScatterStrategy().isEmpty()) {
            sorted = new ScatterSorter(us.getScatterStrategy()).sort(pods, sorted);
        }
        List<Integer> out = new ArrayList<>(sorted);
        out.sort(Comparator.comparingInt(i -> WellKnown.LIFECYCLE_STATE_PREPARING_UPDATE
                .equals(Pods.lifecycleState(pods.get(i))) ? 0 : 1));
        return out;
    }

    static List<Pod> limit(CloneSetPlanner.State s, CloneSetDiff diff, List<Integer> candidates, String target, int minReady) {
        List<Pod> pods = s.pods();
        int max = Math.abs(diff.updateNum());
        Map<Pod, Boolean> unavailable = new IdentityHashMap<>();
        int unavailableCount = 0;
        int targetUnavailable = 0;
        for (Pod p : pods) {
            // A pod already marked for deletion is as good as gone: it uses up the budget.
            boolean down = !Pods.isServing(p, minReady, s.now()) || CloneSetDiff.isSpecifiedDelete(s.cs(), p);
            unavailable.put(p, down);
            if (down) {
                unavailableCount++;
                if (Pods.atRevision(p, target)) {
                    targetUnavailable++;
                }
            }
        }
        List<Pod> chosen = new ArrayList<>();
        for (int i : candidates) {
            if (chosen.size() >= max) {
                break;
            }
            Pod p = pods.get(i);
            if (!unavailable.get(p)) {
                if (unavailableCount >= diff.updateMaxUnavailable()) {
                    break;
                }
                unavailableCount++;
            }
            if (targetUnavailable >= diff.updateMaxUnavailable()) {
                break;
            }
            targetUnavailable++;
            chosen.add(p);
        }
        return chosen;
    }
}
