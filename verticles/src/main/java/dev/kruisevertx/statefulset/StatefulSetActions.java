package dev.kruisevertx.statefulset;

import dev.kruisevertx.inplace.InPlaceUpdateSpec;
import dev.kruisevertx.lifecycle.LifecycleChange;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Map;

/**
 * How an Advanced StatefulSet plan is carried out, every choice already made: the objects to write, and the pods held
 * back and why; the planner hands over lists nobody changes afterwards. {@link StatefulSetActuator} writes it in three rounds: {@code upkeep} first, then the plan's own
 * work, then {@code refresh}.
 *
 * @param creations   pods to create, each after its missing PVCs
 * @param deletions   pods to delete, each with the PVCs that go with it (whenScaled Delete)
 * @param inPlace     in-place updates to start
 * @param hooks       lifecycle states set by a hook before a delete or an in-place update
 * @param resizes     PVCs to expand to their grown templates
 * @param held        pods the plan names that wait instead, and why
 * @param upkeep      each pod's identity and PVCs brought in line before anything else
 * @param refresh     in-place updates in flight and lifecycle states moved on, after everything else
 */
record StatefulSetActions(List<Creation> creations, List<Deletion> deletions, List<InPlace> inPlace,
                          List<LifecycleWrite> hooks, List<ClaimResize> resizes, List<Hold> held, Upkeep upkeep,
                          Refresh refresh) {
    static final StatefulSetActions NONE = new StatefulSetActions(List.of(), List.of(), List.of(), List.of(), List.of(),
            List.of(), Upkeep.NONE, Refresh.NONE);

    /** A pod to create, and those of its PVCs the cache did not hold. */
    record Creation(Pod pod, List<PersistentVolumeClaim> claims) {
    }

    /** A pod to delete, then the PVCs named (whenScaled Delete on a condemned pod). */
    record Deletion(String pod, List<String> claims) {
    }

    /** An in-place update of {@code pod} by {@code spec}; {@code withLifecycle} moves it to Updating too. */
    record InPlace(Pod pod, InPlaceUpdateSpec spec, boolean withLifecycle) {
    }

    /** A lifecycle change of a pod as the cache held it. */
    record LifecycleWrite(Pod pod, LifecycleChange change) {
    }

    /** A PVC of {@code pod} to grow to {@code template}'s request. */
    record ClaimResize(String pod, PersistentVolumeClaim claim, PersistentVolumeClaim template) {
    }

    /** A pod the plan names that waits; {@code claim} names the PVC in question, if any. */
    record Hold(String pod, Why why, String claim) {
        /** The text a hold that fails the reconcile fails it with, as upstream words it. */
        String failure() {
            return switch (why) {
                case STALE_CLAIM -> "PVC " + claim + " still belongs to an earlier pod " + pod
                        + "; waiting for it to be collected before creating the pod";
                case CLAIM_NOT_UPDATABLE -> "can not patch pvc " + claim
                        + ": contains diff other than spec resource, wait pvc to be deleted";
                default -> null;
            };
        }
    }

    enum Why {
        /** Not created: a PVC of its name still references an earlier pod (whenScaled Delete). Fails the reconcile. */
        STALE_CLAIM,
        /** Not deleted: the preDelete hook holds it in PreparingDelete. */
        PRE_DELETE_HOOK,
        /** Not updated yet: the inPlaceUpdate hook holds it in PreparingUpdate. */
        IN_PLACE_UPDATE_HOOK,
        /** Not updated: its lifecycle state (PreparingDelete) allows no update. */
        UPDATE_NOT_ALLOWED,
        /** A PVC differs from its template in more than the size: it is not resized. Fails the reconcile. */
        CLAIM_NOT_UPDATABLE
    }

    /**
     * Each pod kept in line with the set (upstream's UpdateStatefulPod; a failure is FailedUpdatePod).
     *
     * @param claimOwners   PVCs whose ownerReferences the retention policy changes
     * @param identities    pods that lost labels of their identity, with the labels to put back
     * @param missingClaims PVCs missing for a pod that exists
     */
    record Upkeep(List<ClaimOwners> claimOwners, List<Identity> identities, List<MissingClaims> missingClaims) {
        static final Upkeep NONE = new Upkeep(List.of(), List.of(), List.of());
    }

    /** A PVC of {@code pod} whose ownerReferences change; a failure counts for a pod that is not condemned. */
    record ClaimOwners(PersistentVolumeClaim claim, Pod pod, boolean condemned) {
    }

    /** Labels a pod lost and gets back. */
    record Identity(Pod pod, Map<String, String> labels) {
    }

    /** PVCs a pod lacks; {@code reportFailure} when the pod does not mount them yet (FailedUpdatePod). */
    record MissingClaims(String pod, List<PersistentVolumeClaim> claims, boolean reportFailure) {
    }

    /**
     * In-place updates in flight and lifecycles moved on.
     *
     * @param lifecycle lifecycle states moved on (PreparingNormal, Updating and Updated to Normal)
     * @param patches   JSON patches of pods with an in-place update in flight
     */
    record Refresh(List<LifecycleWrite> lifecycle, List<PodPatch> patches) {
        static final Refresh NONE = new Refresh(List.of(), List.of());
    }

    /** A JSON patch of a pod, or of its status. */
    record PodPatch(Pod pod, String patch, boolean status) {
    }
}
