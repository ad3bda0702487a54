package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.inplace.InPlaceUpdateSpec;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.inplace.RevisionLabels;
import dev.kruisevertx.lifecycle.LifecycleChange;
import dev.kruisevertx.lifecycle.LifecycleTransitions;
import dev.kruisevertx.lifecycle.Lifecycles;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.HookReasons;
import dev.kruisevertx.controller.reason.PodBlockers;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The whole decision of one Advanced StatefulSet reconcile, a pure function of {@link Input}: which ordinals move
 * ({@link StatefulSetOrdinalPlanner}), then how each is carried out and what waits instead — a pod whose PVC still
 * belongs to an earlier pod is not created, a pod hooked by preDelete goes PreparingDelete instead of away, the
 * inPlaceUpdate hook holds an update in PreparingUpdate — and the upkeep and refresh of every pod
 * ({@link StatefulSetUpkeepPlanner}). No API calls and no clock: the time is {@code state().now()}.
 */
public final class StatefulSetPlanner {
    /**
     * At most this many pods are created by one reconcile (Parallel): a scale-up by 100,000 is created 500 at a
     * time, so a set deleted or changed mid-way stops after the batch in flight.
     */
    public static final int MAX_CREATES_PER_PLAN = 500;
    /** Only reads pods: the refresh decisions and grace periods of in-place updates in flight. */
    static final InPlaceUpdater UPDATER = new InPlaceUpdater(RevisionLabels.plain());

    private StatefulSetPlanner() {
    }

    /**
     * Everything the decision reads, put together by {@link StatefulSetStateBuilder}.
     *
     * @param snapshot  the set, its pods and PVCs as the cache held them
     * @param settings  the set's spec resolved
     * @param state     what the ordinal decision reads
     * @param templates the revisions' templates and in-place updates
     */
    record Input(StatefulSetSnapshot snapshot, StatefulSetSettings settings, StatefulSetOrdinalPlanner.State state,
                 StatefulSetRevisionTemplates templates) {
        StatefulSet set() {
            return snapshot.set();
        }

        Instant now() {
            return state.now();
        }

        Lifecycle lifecycle() {
            return settings.lifecycle();
        }

        Pod pod(String name) {
            return snapshot.pods().get(PodOrdinals.ordinalOf(snapshot.setName(), name));
        }
    }

    static StatefulSetPlan plan(Input in) {
        StatefulSetPlan order = StatefulSetOrdinalPlanner.plan(in.state());
        List<StatefulSetActions.Creation> creations = new ArrayList<>();
        List<StatefulSetActions.Deletion> deletions = new ArrayList<>();
        List<StatefulSetActions.InPlace> inPlace = new ArrayList<>();
        List<StatefulSetActions.LifecycleWrite> hooks = new ArrayList<>();
        List<StatefulSetActions.ClaimResize> resizes = new ArrayList<>();
        List<StatefulSetActions.Hold> held = new ArrayList<>();
        for (StatefulSetPlan.Create c : order.creates()) {
            create(in, c, creations, held);
        }
        for (StatefulSetPlan.Delete d : order.deletes()) {
            delete(in, d, deletions, hooks, held);
        }
        for (String name : order.resize()) {
            Pod pod = in.pod(name);
            if (pod != null) {
                resize(in, pod, resizes, held);
            }
        }
        for (String name : order.inPlace()) {
            Pod pod = in.pod(name);
            if (pod != null) {
                updateInPlace(in, pod, inPlace, hooks, held);
            }
        }
        StatefulSetActions actions = new StatefulSetActions(List.copyOf(creations), List.copyOf(deletions),
                List.copyOf(inPlace), List.copyOf(hooks), List.copyOf(resizes), List.copyOf(held),
                StatefulSetUpkeepPlanner.upkeep(in), StatefulSetUpkeepPlanner.refresh(in, UPDATER));
        List<BlockReason> reasons = new ArrayList<>();
        Lifecycle lifecycle = in.lifecycle();
        for (StatefulSetActions.Hold h : held) {
            Pod pod = in.pod(h.pod());
            if (pod == null || lifecycle == null) {
                continue;
            }
            if (h.why() == StatefulSetActions.Why.PRE_DELETE_HOOK) {
                reasons.add(HookReasons.of(pod, "preDelete", lifecycle.getPreDelete()));
            } else if (h.why() == StatefulSetActions.Why.IN_PLACE_UPDATE_HOOK) {
                reasons.add(HookReasons.of(pod, "inPlaceUpdate", lifecycle.getInPlaceUpdate()));
            }
        }
        // What the pods themselves wait for (the scheduler, minReadySeconds): what the ordered steps wait for.
        reasons.addAll(PodBlockers.of(in.snapshot().owned(), in.state().minReadySeconds(), in.now()));
        return order.withActions(actions).withReasons(reasons)
                .requeueWithin(UPDATER.nextGraceDue(in.snapshot().owned(), in.now()));
    }

    /** The pod and its missing PVCs; held while a PVC of its name still references an earlier pod (whenScaled). */
    private static void create(Input in, StatefulSetPlan.Create c, List<StatefulSetActions.Creation> creations,
                               List<StatefulSetActions.Hold> held) {
        StatefulSetSettings s = in.settings();
        Pod pod = StatefulSetPods.newPod(in.set(), in.templates().templateFor(c.revision()), c.ordinal(),
                c.revision(), s.podIndexLabel(), s.inPlacePolicy());
        if (s.lifecycle() != null) {
            Lifecycles.setState(pod.getMetadata(), LifecycleTransitions.initialState(), in.now());
        }
        List<PersistentVolumeClaim> missing = new ArrayList<>();
        for (PersistentVolumeClaim claim : StatefulSetPods.newClaims(in.set(), c.ordinal(), s.claimsOwnedBySet())) {
            PersistentVolumeClaim existing = in.snapshot().claim(claim.getMetadata().getName());
            if (existing == null) {
                missing.add(claim);
            } else if (s.deleteClaimsOnScale() && StatefulSetClaims.staleForNewPod(existing, c.name())) {
                held.add(new StatefulSetActions.Hold(c.name(), StatefulSetActions.Why.STALE_CLAIM,
                        existing.getMetadata().getName()));
                return;
            }
        }
        creations.add(new StatefulSetActions.Creation(pod, missing));
    }

    /** Deleted, with its PVCs when condemned under whenScaled Delete; or held PreparingDelete by the preDelete hook. */
    private static void delete(Input in, StatefulSetPlan.Delete d, List<StatefulSetActions.Deletion> deletions,
                               List<StatefulSetActions.LifecycleWrite> hooks, List<StatefulSetActions.Hold> held) {
        Lifecycle lifecycle = in.lifecycle();
        Pod victim = in.pod(d.name());
        if (victim != null && d.reason() != StatefulSetPlan.Reason.FAILED
                && LifecycleTransitions.beforeDelete(victim, lifecycle) == LifecycleTransitions.DeleteStep.PREPARE_DELETE) {
            write(hooks, victim, Lifecycles.withState(victim, LifecycleState.PREPARING_DELETE, in.now(),
                    LifecycleTransitions.preDeleteMarkPodNotReady(lifecycle)));
            held.add(new StatefulSetActions.Hold(d.name(), StatefulSetActions.Why.PRE_DELETE_HOOK, null));
            return;
        }
        List<String> claims = new ArrayList<>();
        List<PersistentVolumeClaim> templates = in.set().getSpec().getVolumeClaimTemplates();
        int ordinal = PodOrdinals.ordinalOf(in.snapshot().setName(), d.name());
        if (d.reason() == StatefulSetPlan.Reason.CONDEMNED && in.settings().deleteClaimsOnScale() && templates != null
                && ordinal >= 0) {
            for (PersistentVolumeClaim t : templates) {
                claims.add(PodOrdinals.claimName(t.getMetadata().getName(), in.snapshot().setName(), ordinal));
            }
        }
        deletions.add(new StatefulSetActions.Deletion(d.name(), claims));
    }

    /** Only the size may grow: a PVC that differs otherwise is held (FailedUpdatePVC) until it is deleted. */
    private static void resize(Input in, Pod pod, List<StatefulSetActions.ClaimResize> resizes,
                               List<StatefulSetActions.Hold> held) {
        String name = pod.getMetadata().getName();
        for (Map.Entry<PersistentVolumeClaim, PersistentVolumeClaim> e : in.snapshot().claimsOf(pod)) {
            if (StatefulSetClaims.matches(e.getKey(), e.getValue())) {
                continue;
            }
            if (!StatefulSetClaims.compatibleWithoutSize(e.getKey(), e.getValue())) {
                held.add(new StatefulSetActions.Hold(name, StatefulSetActions.Why.CLAIM_NOT_UPDATABLE,
                        e.getKey().getMetadata().getName()));
                continue;
            }
            resizes.add(new StatefulSetActions.ClaimResize(name, e.getKey(), e.getValue()));
        }
    }

    /** The update itself, or the inPlaceUpdate hook's PreparingUpdate first, or a wait. */
    private static void updateInPlace(Input in, Pod pod, List<StatefulSetActions.InPlace> inPlace,
                                      List<StatefulSetActions.LifecycleWrite> hooks,
                                      List<StatefulSetActions.Hold> held) {
        InPlaceUpdateSpec spec = in.templates().inPlaceSpec(StatefulSetStateBuilder.revisionOf(pod));
        if (spec == null) {
            return;
        }
        Lifecycle lifecycle = in.lifecycle();
        String name = pod.getMetadata().getName();
        switch (LifecycleTransitions.beforeInPlaceUpdate(pod, lifecycle)) {
            case UPDATE -> inPlace.add(new StatefulSetActions.InPlace(pod, spec, lifecycle != null));
            case TO_PREPARING_UPDATE -> {
                write(hooks, pod, Lifecycles.withState(pod, LifecycleState.PREPARING_UPDATE, in.now(),
                        LifecycleTransitions.inPlaceUpdateMarkPodNotReady(lifecycle)));
                held.add(new StatefulSetActions.Hold(name, StatefulSetActions.Why.IN_PLACE_UPDATE_HOOK, null));
            }
            case TO_PREPARING_UPDATE_WITH_HANDLER -> {
                write(hooks, pod, Lifecycles.withStateAndHandler(pod, LifecycleState.PREPARING_UPDATE,
                        lifecycle == null ? null : lifecycle.getInPlaceUpdate(), in.now()));
                held.add(new StatefulSetActions.Hold(name, StatefulSetActions.Why.IN_PLACE_UPDATE_HOOK, null));
            }
            case WAIT -> held.add(new StatefulSetActions.Hold(name, StatefulSetActions.Why.IN_PLACE_UPDATE_HOOK, null));
            case NOT_ALLOWED -> held.add(new StatefulSetActions.Hold(name, StatefulSetActions.Why.UPDATE_NOT_ALLOWED,
                    null));
        }
    }

    static void write(List<StatefulSetActions.LifecycleWrite> out, Pod pod, LifecycleChange change) {
        if (change.changed()) {
            out.add(new StatefulSetActions.LifecycleWrite(pod, change));
        }
    }
}
