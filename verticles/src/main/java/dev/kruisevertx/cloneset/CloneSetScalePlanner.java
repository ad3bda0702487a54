package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetScaleStrategy;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cloneset.CloneSetPlan.Phase;
import dev.kruisevertx.lifecycle.LifecycleTransitions;
import dev.kruisevertx.lifecycle.Lifecycles;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * The scale half of a CloneSet decision ({@link CloneSetPlanner#plan}): return pods in PreparingDelete when replicas
 * grew back, create (at most {@link CloneSetPlanner#MAX_CREATES_PER_PLAN}, reusing the instance ids of PVCs left
 * without a pod), delete pods their preDelete hook released, delete specified pods, scale down, all within
 * maxUnavailable. Pure: it reads the snapshot and returns a plan.
 */
final class CloneSetScalePlanner {
    private CloneSetScalePlanner() {
    }

    static CloneSetPlan planScale(CloneSetPlanner.State s, Random random) {
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
                CloneSetPlan.Builder held = CloneSetPlan.builder(Phase.SCALE, diff);
                held.reasons.add(CloneSetReasons.maxUnavailable("scaleStrategy.maxUnavailable",
                        CloneSetDiff.Limits.of(cs).scaleMaxUnavailable(),
                        CloneSetReasons.unavailable(cs, s.pods(), minReady, s.now()), diff.scaleUpNum(), "created"));
                return held.build("scale up by " + diff.scaleUpNum() + " held: scaleStrategy.maxUnavailable reached");
            }
            count = Math.min(count, CloneSetPlanner.MAX_CREATES_PER_PLAN);
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
                } else {
                    b.reasons.add(CloneSetReasons.hook(p, "preDelete", lifecycle.getPreDelete()));
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
        int heldSpecified = 0;
        for (List<Pod> group : List.of(specifiedNew, specifiedOld)) {
            for (Pod p : group) {
                if (!Pods.isServing(p, 0, s.now())) {
                    toDelete.add(p);
                } else if (readyBudget > 0) {
                    toDelete.add(p);
                    readyBudget--;
                } else {
                    heldSpecified++;
                }
            }
        }
        if (heldSpecified > 0) {
            CloneSetDiff.Limits limits = CloneSetDiff.Limits.of(cs);
            if (limits.maxSurge() > 0 && diff.useSurge() > 0) {
                b.reasons.add(CloneSetReasons.maxSurge(cs, s.pods(), s.updateRevision(), limits.maxSurge(),
                        heldSpecified, "replaced", minReady, s.now()));
            }
            if (limits.maxUnavailable() > 0 || limits.maxSurge() == 0) {
                b.reasons.add(CloneSetReasons.maxUnavailable("updateStrategy.maxUnavailable", limits.maxUnavailable(),
                        CloneSetReasons.unavailable(cs, s.pods(), minReady, s.now()), heldSpecified, "deleted"));
            }
        }
        if (!toDelete.isEmpty()) {
            addDeletes(b, cs, toDelete, s.pvcs());
            return b.build("delete specified pods within maxUnavailable");
        }

        // 5. Scale down.
        if (diff.scaleDownNum() > 0) {
            if (numToDelete > 0) {
                // b keeps the hook reasons of the pods being deleted: they are what this waits for.
                return b.build("scale down by " + diff.scaleDownNum()
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
            if (toDelete.size() < chosen.size()) {
                b.reasons.add(CloneSetReasons.maxUnavailable("updateStrategy.maxUnavailable",
                        CloneSetDiff.Limits.of(cs).maxUnavailable(), CloneSetReasons.unavailable(cs, s.pods(), minReady,
                                s.now()), chosen.size() - toDelete.size(), "deleted"));
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
}
