package dev.kruisevertx.cloneset;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;

/**
 * What one reconcile of a CloneSet will do, decided from the cache alone. Every list is executed in the order
 * given; an empty plan means the CloneSet is where its spec wants it (or must wait, see {@code reason}).
 *
 * @param phase           which step decided: scaling and updating never happen in the same reconcile
 * @param reason          one line for humans ({@code /debug/plans}, logs)
 * @param diff            the numbers the decision was made from (null when it never got that far)
 * @param creates         pods to create, each with the PVCs of its instance that do not exist yet
 * @param lifecycle       lifecycle state changes (pod name, new state)
 * @param deletes         pods to delete, each with the PVCs of its instance to delete with it
 * @param pvcDeletes      PVCs to delete on their own (instances without a pod, with disablePVCReuse)
 * @param recreates       pods to mark {@code apps.kruise.io/specified-delete} so scaling replaces them
 * @param markReady       pods whose InPlaceUpdateReady condition must be set True
 */
public record CloneSetPlan(Phase phase, String reason, CloneSetDiff diff, List<Create> creates,
                           List<LifecycleChange> lifecycle, List<Delete> deletes, List<PersistentVolumeClaim> pvcDeletes,
                           List<Pod> recreates, List<Pod> markReady) {

    public enum Phase { NONE, WAIT, SCALE, UPDATE }

    /** A pod to create with the PVCs it needs. */
    public record Create(Pod pod, List<PersistentVolumeClaim> claims, boolean atCurrentRevision) {
    }

    /** A pod to delete with the PVCs of its instance. */
    public record Delete(Pod pod, List<PersistentVolumeClaim> claims) {
    }

    public record LifecycleChange(Pod pod, String state) {
    }

    public CloneSetPlan {
        creates = List.copyOf(creates);
        lifecycle = List.copyOf(lifecycle);
        deletes = List.copyOf(deletes);
        pvcDeletes = List.copyOf(pvcDeletes);
        recreates = List.copyOf(recreates);
        markReady = List.copyOf(markReady);
    }

    public boolean hasActions() {
        return !creates.isEmpty() || !lifecycle.isEmpty() || !deletes.isEmpty() || !pvcDeletes.isEmpty()
                || !recreates.isEmpty() || !markReady.isEmpty();
    }

    /** A compact one-line description: the reason and the counts of each action. */
    public String summary() {
        List<String> parts = new ArrayList<>();
        if (!creates.isEmpty()) {
            parts.add("create " + creates.size());
        }
        if (!deletes.isEmpty()) {
            parts.add("delete " + deletes.size());
        }
        if (!lifecycle.isEmpty()) {
            parts.add("lifecycle " + lifecycle.size());
        }
        if (!recreates.isEmpty()) {
            parts.add("recreate " + recreates.size());
        }
        if (!pvcDeletes.isEmpty()) {
            parts.add("delete pvc " + pvcDeletes.size());
        }
        if (!markReady.isEmpty()) {
            parts.add("mark ready " + markReady.size());
        }
        return phase + ": " + reason + (parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")");
    }

    static Builder builder(Phase phase, CloneSetDiff diff) {
        return new Builder(phase, diff);
    }

    /** Accumulates actions while a decision is made. */
    static final class Builder {
        Phase phase;
        final CloneSetDiff diff;
        final List<Create> creates = new ArrayList<>();
        final List<LifecycleChange> lifecycle = new ArrayList<>();
        final List<Delete> deletes = new ArrayList<>();
        final List<PersistentVolumeClaim> pvcDeletes = new ArrayList<>();
        final List<Pod> recreates = new ArrayList<>();
        final List<Pod> markReady = new ArrayList<>();

        Builder(Phase phase, CloneSetDiff diff) {
            this.phase = phase;
            this.diff = diff;
        }

        boolean hasActions() {
            return !creates.isEmpty() || !lifecycle.isEmpty() || !deletes.isEmpty() || !pvcDeletes.isEmpty()
                    || !recreates.isEmpty() || !markReady.isEmpty();
        }

        CloneSetPlan build(String reason) {
            return new CloneSetPlan(phase, reason, diff, creates, lifecycle, deletes, pvcDeletes, recreates, markReady);
        }
    }
}
