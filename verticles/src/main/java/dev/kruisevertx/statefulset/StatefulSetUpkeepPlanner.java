package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.inplace.RefreshOutcome;
import dev.kruisevertx.lifecycle.LifecycleTransitions;
import dev.kruisevertx.lifecycle.Lifecycles;
import dev.kruisevertx.podutil.PodPatches;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The per-pod part of the decision, made for every pod whatever the plan: the upkeep that keeps each pod's identity
 * and PVCs in line with the set (run before the plan), and the refresh that moves in-place updates in flight and
 * lifecycle states on (run after it). Pure; it parses the in-place state of every pod that has one.
 */
final class StatefulSetUpkeepPlanner {
    private StatefulSetUpkeepPlanner() {
    }

    /**
     * Upstream's UpdateStatefulPod (a failure is FailedUpdatePod): the pod-name label (and the index labels with
     * gate PodIndexLabel), PVC ownerReferences as the retention policy asks (gate StatefulSetAutoDeletePVC;
     * condemned pods get theirs before they go), and missing PVCs created for a pod still Pending or one that
     * predates a volumeClaimTemplate. A pod's volumes cannot change after creation, so such a pod mounts the new
     * PVC once it is recreated by the next update.
     */
    static StatefulSetActions.Upkeep upkeep(StatefulSetPlanner.Input in) {
        StatefulSet set = in.set();
        StatefulSetSettings s = in.settings();
        StatefulSetSnapshot snap = in.snapshot();
        List<StatefulSetActions.ClaimOwners> owners = new ArrayList<>();
        List<StatefulSetActions.Identity> identities = new ArrayList<>();
        List<StatefulSetActions.MissingClaims> missing = new ArrayList<>();
        for (Pod p : snap.owned()) {
            if (Pods.isTerminating(p)) {
                continue;
            }
            String name = p.getMetadata().getName();
            int ordinal = PodOrdinals.ordinalOf(snap.setName(), name);
            boolean condemned = !snap.desired().contains(ordinal);
            if (s.autoDeletePvc()) {
                for (var e : snap.claimsOf(p)) {
                    if (StatefulSetClaims.ownerReferencesFor(e.getKey(), set, p, condemned) != null) {
                        owners.add(new StatefulSetActions.ClaimOwners(e.getKey(), p, condemned));
                    }
                }
            }
            if (condemned) {
                continue;
            }
            if (!name.equals(Pods.label(p, StatefulSetPods.POD_NAME_LABEL))) {
                identities.add(new StatefulSetActions.Identity(p, identityLabels(name, ordinal, s.podIndexLabel())));
            }
            boolean storageMatches = StatefulSetClaims.storageMatches(set, p, ordinal);
            if (!storageMatches || Pods.PHASE_PENDING.equals(Pods.phase(p))) {
                List<PersistentVolumeClaim> absent = StatefulSetPods.newClaims(set, ordinal, s.claimsOwnedBySet())
                        .stream().filter(c -> snap.claim(c.getMetadata().getName()) == null).toList();
                if (!absent.isEmpty()) {
                    missing.add(new StatefulSetActions.MissingClaims(name, absent, !storageMatches));
                }
            }
        }
        return new StatefulSetActions.Upkeep(List.copyOf(owners), List.copyOf(identities), List.copyOf(missing));
    }

    /** The pod-name label, and with gate PodIndexLabel the index labels, as upstream puts them back. */
    private static Map<String, String> identityLabels(String name, int ordinal, boolean podIndexLabel) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(StatefulSetPods.POD_NAME_LABEL, name);
        if (podIndexLabel) {
            labels.put(StatefulSetPods.K8S_POD_INDEX_LABEL, Integer.toString(ordinal));
            labels.put(StatefulSetPods.KRUISE_POD_INDEX_LABEL, Integer.toString(ordinal));
        }
        return labels;
    }

    /**
     * In-place updates in flight (grace periods, next batches, InPlaceUpdateReady back to True) and the lifecycle
     * states (PreparingNormal, Updating and Updated on to Normal when the hooks allow). A grace period running out is
     * no event: the plan's requeue covers it.
     */
    static StatefulSetActions.Refresh refresh(StatefulSetPlanner.Input in, InPlaceUpdater updater) {
        Lifecycle lifecycle = in.lifecycle();
        String updateRevision = in.state().updateRevision();
        List<StatefulSetActions.LifecycleWrite> lifecycles = new ArrayList<>();
        List<StatefulSetActions.PodPatch> patches = new ArrayList<>();
        for (Pod p : in.snapshot().owned()) {
            if (Pods.isTerminating(p)) {
                continue;
            }
            Optional<LifecycleState> next = LifecycleTransitions.onRefresh(p, lifecycle,
                    updateRevision.equals(StatefulSetStateBuilder.revisionOf(p)), updater.checkCompleted(p).done());
            if (next.isPresent()) {
                StatefulSetPlanner.write(lifecycles, p, Lifecycles.withState(p, next.get(), in.now(),
                        LifecycleTransitions.refreshMarkPodNotReady(lifecycle)));
                continue;
            }
            RefreshOutcome r = updater.refresh(p, in.now());
            if (r.action() == RefreshOutcome.Action.UPDATE_POD) {
                String patch = PodPatches.forPod(p, r.pod(), true);
                if (!PodPatches.isEmpty(patch)) {
                    patches.add(new StatefulSetActions.PodPatch(p, patch, false));
                }
            } else if (r.action() == RefreshOutcome.Action.UPDATE_STATUS) {
                String patch = PodPatches.forStatus(p, r.pod());
                if (!PodPatches.isEmpty(patch)) {
                    patches.add(new StatefulSetActions.PodPatch(p, patch, true));
                }
            }
        }
        return new StatefulSetActions.Refresh(List.copyOf(lifecycles), List.copyOf(patches));
    }
}
