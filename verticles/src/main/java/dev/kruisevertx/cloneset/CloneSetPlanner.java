package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetScaleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategyType;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cloneset.CloneSetPlan.Phase;
import dev.kruisevertx.inplace.InPlaceUpdateCalculator;
import dev.kruisevertx.inplace.InPlaceUpdateOptions;
import dev.kruisevertx.inplace.InPlaceUpdateSpec;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.inplace.RefreshOutcome;
import dev.kruisevertx.inplace.RevisionLabels;
import dev.kruisevertx.lifecycle.LifecycleTransitions;
import dev.kruisevertx.lifecycle.Lifecycles;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.updatesort.PrioritySorter;
import dev.kruisevertx.updatesort.ScatterSorter;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
        CloneSetPlan scale = planScale(s, random);
        CloneSetPlan plan = scale.hasActions() || scale.phase() == Phase.WAIT ? scale : planUpdate(s, scale);
        // Every step (maxUnavailable budgets, the status) counts available pods, and a ready pod turns available
        // only by time passing, which no event announces: look again when the first one does.
        return plan.requeueWithin(Pods.nextAvailableIn(s.pods(), s.cs().getSpec().getMinReadySeconds(), s.now()));
    }

    // ---- scale -----------------------------------------------------------------------------------------------

    static CloneSetPlan planScale(State s, Random random) {
        CloneSet cs = s.cs();
        int replicas = CloneSetDiff.Limits.of(cs).replicas();
        int minReady = cs.getSpec().getMinReadySeconds();
        Lifecycle lifecycle = cs.getSpec().getLifecycle();

        List<Pod> specified = new ArrayList<>();
        List<Pod> preDeleting = new ArrayList<>();
        Set<String> plannedNames = new HashSet<>();
        for (Pod p : s.pods()) {
            if (CloneSetDiff.isSpecifiedDelete(cs, p)) {
                specified.add(p);
                plannedNames.add(p.getMetadata().getName());
            }
            if (Pods.isPreparingDelete(p)) {
                preDeleting.add(p);
                plannedNames.add(p.getMetadata().getName());
            }
        }
        int numToDelete = plannedNames.size();

        // 1. Replicas went back up while pods waited in PreparingDelete: bring them back (through PreparingNormal,
        // so a preNormal hook applies again) instead of creating. Not when a hook marks pods not ready: as
        // OpenKruise documents, such a pod never returns (its Updated hook could be lost on the way back).
        CloneSetPlan.Builder b = CloneSetPlan.builder(Phase.SCALE, null);
        int missing = replicas - s.pods().size() + numToDelete;
        boolean noReturn = Lifecycles.isLifecycleMarkPodNotReady(lifecycle);
        for (Pod p : preDeleting) {
            if (missing <= 0 || noReturn) {
                break;
            }
            if (CloneSetDiff.isSpecifiedDelete(cs, p)) {
                continue;
            }
            b.lifecycle.add(new CloneSetPlan.LifecycleChange(p, LifecycleState.PREPARING_NORMAL, false));
            missing--;
        }
        if (b.hasActions()) {
            return b.build("replicas grew back: return pods in PreparingDelete to Normal");
        }

        CloneSetDiff diff = CloneSetDiff.calculate(cs, s.pods(), s.currentRevision(), s.updateRevision(),
                s.options().partitionRollback(), s.options().preparingUpdateAsUpdate()
                        ? CloneSetDiff.AT_REVISION_OR_PREPARING_UPDATE : CloneSetDiff.AT_REVISION, s.now(),
                s.options().scalingExcludePreparingDelete());
        b = CloneSetPlan.builder(Phase.SCALE, diff);

        // 2. Scale up.
        if (diff.scaleUpNum() > 0) {
            CloneSetScaleStrategy ss = cs.getSpec().getScaleStrategy();
            if (ss != null && ss.isDisablePVCReuse()) {
                List<PersistentVolumeClaim> stale = claimsWithoutPod(s.pods(), s.pvcs());
                if (!stale.isEmpty()) {
                    b.pvcDeletes.addAll(stale);
                    return b.build("disablePVCReuse: delete PVCs of instances without a pod before creating");
                }
            }
            int count = diff.scaleUpLimit();
            if (count <= 0) {
                return CloneSetPlan.builder(Phase.SCALE, diff)
                        .build("scale up by " + diff.scaleUpNum() + " held: scaleStrategy.maxUnavailable reached");
            }
            count = Math.min(count, MAX_CREATES_PER_PLAN);
            List<String> ids = instanceIds(count, s.pods(), s.pvcs(), s.terminatingIds(), random);
            if (ids.isEmpty()) {
                return CloneSetPlan.builder(Phase.SCALE, diff)
                        .build("scale up waits for terminating pods to release their instance ids and PVCs");
            }
            count = ids.size();
            Set<String> existingClaims = new HashSet<>();
            for (PersistentVolumeClaim c : s.pvcs()) {
                existingClaims.add(c.getMetadata().getName());
            }
            int atCurrent = Math.min(diff.scaleUpNumOldRevision(), count);
            LifecycleState initialState = lifecycle != null && lifecycle.getPreNormal() != null
                    ? LifecycleState.PREPARING_NORMAL : LifecycleState.NORMAL;
            for (int i = 0; i < count; i++) {
                boolean current = i < atCurrent;
                String revision = current ? s.currentRevision() : s.updateRevision();
                PodTemplateSpec template = current ? s.currentTemplate() : cs.getSpec().getTemplate();
                Pod pod = PodFactory.newPod(cs, template, revision, ids.get(i), s.options().shortHash(), initialState, s.now());
                List<PersistentVolumeClaim> claims = new ArrayList<>();
                for (PersistentVolumeClaim c : PodFactory.claims(cs, ids.get(i))) {
                    if (!existingClaims.contains(c.getMetadata().getName())) {
                        claims.add(c);
                    }
                }
                b.creates.add(new CloneSetPlan.Create(pod, claims, current));
            }
            return b.build("scale up " + count + " of " + diff.scaleUpNum() + " (" + atCurrent + " at current revision)");
        }

        // 3. Pods in PreparingDelete whose hook let go.
        if (!preDeleting.isEmpty()) {
            for (Pod p : preDeleting) {
                if (LifecycleTransitions.beforeDelete(p, lifecycle) == LifecycleTransitions.DeleteStep.DELETE) {
                    b.deletes.add(new CloneSetPlan.Delete(p, claimsOf(p, s.pvcs())));
                }
            }
            if (b.hasActions()) {
                return b.build("delete pods released by their preDelete hook");
            }
        }

        // 4. Specified deletes, new revision first; available pods only within the delete budget.
        int readyBudget = diff.deleteReadyLimit();
        List<Pod> toDelete = new ArrayList<>();
        List<Pod> specifiedNew = new ArrayList<>();
        List<Pod> specifiedOld = new ArrayList<>();
        for (Pod p : specified) {
            if (Pods.isPreparingDelete(p)) {
                continue;
            }
            (Pods.atRevision(p, s.updateRevision()) ? specifiedNew : specifiedOld).add(p);
        }
        for (List<Pod> group : List.of(specifiedNew, specifiedOld)) {
            for (Pod p : group) {
                if (!Pods.isServing(p, 0, s.now())) {
                    toDelete.add(p);
                } else if (readyBudget > 0) {
                    toDelete.add(p);
                    readyBudget--;
                }
            }
        }
        if (!toDelete.isEmpty()) {
            addDeletes(b, cs, toDelete, s.pvcs());
            return b.build("delete specified pods within maxUnavailable");
        }

        // 5. Scale down.
        if (diff.scaleDownNum() > 0) {
            if (numToDelete > 0) {
                return CloneSetPlan.builder(Phase.SCALE, diff).build("scale down by " + diff.scaleDownNum()
                        + " waits for " + numToDelete + " pods already being deleted");
            }
            List<Pod> updated = new ArrayList<>();
            List<Pod> notUpdated = new ArrayList<>();
            for (Pod p : s.pods()) {
                (Pods.atRevision(p, s.updateRevision()) ? updated : notUpdated).add(p);
            }
            // As OpenKruise, each revision group is ranked among itself.
            List<String> topologyKeys = SpreadConstraintRanker.topologyKeys(cs.getSpec().getTemplate());
            List<Pod> chosen = choose(diff.scaleDownNum(), diff.scaleDownNumOldRevision(), notUpdated, updated,
                    group -> PodDeletionOrder.forPods(group, minReady, s.now(), topologyKeys, s.nodeLabels()));
            for (Pod p : chosen) {
                if (!Pods.isServing(p, minReady, s.now())) {
                    toDelete.add(p);
                } else if (readyBudget > 0) {
                    toDelete.add(p);
                    readyBudget--;
                }
            }
            addDeletes(b, cs, toDelete, s.pvcs());
            return b.build(toDelete.isEmpty() ? "scale down by " + diff.scaleDownNum() + " held: maxUnavailable reached"
                    : "scale down " + toDelete.size() + " of " + diff.scaleDownNum());
        }
        return b.build("replicas as desired");
    }

    /** Delete, or move to PreparingDelete when a preDelete hook holds the pod. */
    private static void addDeletes(CloneSetPlan.Builder b, CloneSet cs, List<Pod> pods, List<PersistentVolumeClaim> pvcs) {
        Lifecycle lifecycle = cs.getSpec().getLifecycle();
        for (Pod p : pods) {
            if (LifecycleTransitions.beforeDelete(p, lifecycle) == LifecycleTransitions.DeleteStep.PREPARE_DELETE) {
                if (!Pods.isPreparingDelete(p)) {
                    b.lifecycle.add(new CloneSetPlan.LifecycleChange(p, LifecycleState.PREPARING_DELETE,
                            LifecycleTransitions.preDeleteMarkPodNotReady(lifecycle)));
                }
            } else {
                b.deletes.add(new CloneSetPlan.Delete(p, claimsOf(p, pvcs)));
            }
        }
    }

    static List<Pod> choose(int total, int oldRevision, List<Pod> notUpdated, List<Pod> updated,
                            Function<List<Pod>, PodDeletionOrder> orderOf) {
        List<Pod> out = new ArrayList<>();
        if (oldRevision >= total) {
            out.addAll(first(notUpdated, total, orderOf));
        } else if (oldRevision > 0) {
            out.addAll(first(notUpdated, oldRevision, orderOf));
            out.addAll(first(updated, total - oldRevision, orderOf));
        } else {
            out.addAll(first(updated, total, orderOf));
        }
        return out;
    }

    /** The first {@code count} of {@code group} by its own order; no ranking when the whole group goes. */
    private static List<Pod> first(List<Pod> group, int count, Function<List<Pod>, PodDeletionOrder> orderOf) {
        if (count >= group.size()) {
            return group;
        }
        return orderOf.apply(group).first(group, count);
    }

    static List<PersistentVolumeClaim> claimsOf(Pod pod, List<PersistentVolumeClaim> pvcs) {
        String id = Pods.labels(pod).get(WellKnown.CLONESET_INSTANCE_ID_LABEL);
        List<PersistentVolumeClaim> out = new ArrayList<>();
        if (id == null) {
            return out;
        }
        for (PersistentVolumeClaim c : pvcs) {
            Map<String, String> labels = c.getMetadata().getLabels();
            if (labels != null && id.equals(labels.get(WellKnown.CLONESET_INSTANCE_ID_LABEL))) {
                out.add(c);
            }
        }
        return out;
    }

    private static List<PersistentVolumeClaim> claimsWithoutPod(List<Pod> pods, List<PersistentVolumeClaim> pvcs) {
        Set<String> used = new HashSet<>();
        for (Pod p : pods) {
            String id = Pods.labels(p).get(WellKnown.CLONESET_INSTANCE_ID_LABEL);
            if (id != null) {
                used.add(id);
            }
        }
        List<PersistentVolumeClaim> out = new ArrayList<>();
        for (PersistentVolumeClaim c : pvcs) {
            String id = c.getMetadata().getLabels() == null ? null
                    : c.getMetadata().getLabels().get(WellKnown.CLONESET_INSTANCE_ID_LABEL);
            if (id != null && !used.contains(id) && c.getMetadata().getDeletionTimestamp() == null) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * Ids of PVCs left without a pod are reused first (their PVCs come back), then random new ones. An id whose
     * old pod is still terminating is kept for that instance: its slot waits (the pod name is still taken), so
     * fewer ids than asked may come back.
     */
    static List<String> instanceIds(int count, List<Pod> pods, List<PersistentVolumeClaim> pvcs,
                                    Set<String> terminatingIds, Random random) {
        Set<String> existing = new HashSet<>(terminatingIds);
        Set<String> free = new LinkedHashSet<>();
        List<PersistentVolumeClaim> sortedPvcs = new ArrayList<>(pvcs);
        sortedPvcs.sort(Comparator.comparing(c -> c.getMetadata().getName()));
        for (PersistentVolumeClaim c : sortedPvcs) {
            String id = c.getMetadata().getLabels() == null ? null
                    : c.getMetadata().getLabels().get(WellKnown.CLONESET_INSTANCE_ID_LABEL);
            if (id != null && !id.isEmpty() && c.getMetadata().getDeletionTimestamp() == null) {
                existing.add(id);
                free.add(id);
            }
        }
        for (Pod p : pods) {
            String id = Pods.labels(p).get(WellKnown.CLONESET_INSTANCE_ID_LABEL);
            if (id != null && !id.isEmpty()) {
                existing.add(id);
                free.remove(id);
            }
        }
        int waiting = 0;
        List<String> ids = new ArrayList<>(count);
        for (String id : free) {
            if (ids.size() + waiting >= count) {
                break;
            }
            if (terminatingIds.contains(id)) {
                waiting++;
            } else {
                ids.add(id);
            }
        }
        while (ids.size() + waiting < count) {
            String id = PodFactory.newInstanceId(random, existing);
            existing.add(id);
            ids.add(id);
        }
        return ids;
    }

    // ---- update ----------------------------------------------------------------------------------------------

    static CloneSetPlan planUpdate(State s, CloneSetPlan scale) {
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
            return b.build("updateStrategy.paused");
        }
        // A grace period running out is no event either: whatever the update step decides, keep its look.
        Duration refreshRequeue = b.requeueAfter;

        CloneSetDiff diff = CloneSetDiff.calculate(cs, s.pods(), s.currentRevision(), s.updateRevision(),
                s.options().partitionRollback(), CloneSetDiff.AT_REVISION, s.now(),
                s.options().scalingExcludePreparingDelete());
        b = CloneSetPlan.builder(Phase.UPDATE, diff);
        b.requeueWithin(refreshRequeue);
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
                        case WAIT, NOT_ALLOWED -> {
                            // Held by the inPlaceUpdate hook, or in a state that cannot be updated.
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

    static List<Pod> limit(State s, CloneSetDiff diff, List<Integer> candidates, String target, int minReady) {
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
