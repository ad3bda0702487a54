package dev.kruisevertx.cloneset;

import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.inplace.InPlaceUpdateSpec;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
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
 * @param inPlace         pods to update in place, with what to change
 * @param podWrites       in-place updates to carry on (grace period over, next container batch): pod updates
 * @param statusWrites    pods whose in-place update finished: InPlaceUpdateReady becomes True
 * @param requeueAfter    when to look again without an event (a grace period running out, a ready pod turning
 *                        available after minReadySeconds), zero for never
 * @param reasons         what held pods back that the spec asks to create, delete or update (partition,
 *                        maxUnavailable, a hook, ...): what {@code kubectl kruise why} prints
 */
public record CloneSetPlan(Phase phase, String reason, CloneSetDiff diff, List<Create> creates,
                           List<LifecycleChange> lifecycle, List<Delete> deletes, List<PersistentVolumeClaim> pvcDeletes,
                           List<Pod> recreates, List<InPlace> inPlace, List<PodWrite> podWrites, List<Pod> statusWrites,
                           Duration requeueAfter, List<BlockReason> reasons) {

    public enum Phase { NONE, WAIT, SCALE, UPDATE }

    /** A pod to create with the PVCs it needs. */
    public record Create(Pod pod, List<PersistentVolumeClaim> claims, boolean atCurrentRevision) {
    }

    /** A pod to delete with the PVCs of its instance. */
    public record Delete(Pod pod, List<PersistentVolumeClaim> claims) {
    }

    /** A lifecycle state change; with markPodNotReady, KruisePodReady follows the state. */
    public record LifecycleChange(Pod pod, LifecycleState state, boolean markPodNotReady) {
    }

    /** A pod to update in place. */
    public record InPlace(Pod pod, InPlaceUpdateSpec spec) {
    }

    /** A pod as cached and as it must become (metadata and spec). */
    public record PodWrite(Pod before, Pod after) {
    }

    public CloneSetPlan {
        creates = List.copyOf(creates);
        lifecycle = List.copyOf(lifecycle);
        deletes = List.copyOf(deletes);
        pvcDeletes = List.copyOf(pvcDeletes);
        recreates = List.copyOf(recreates);
        inPlace = List.copyOf(inPlace);
        podWrites = List.copyOf(podWrites);
        statusWrites = List.copyOf(statusWrites);
        requeueAfter = requeueAfter == null ? Duration.ZERO : requeueAfter;
        reasons = reasons == null ? List.of() : List.copyOf(reasons);
    }

    public CloneSetPlan(Phase phase, String reason, CloneSetDiff diff, List<Create> creates,
                        List<LifecycleChange> lifecycle, List<Delete> deletes, List<PersistentVolumeClaim> pvcDeletes,
                        List<Pod> recreates, List<InPlace> inPlace, List<PodWrite> podWrites, List<Pod> statusWrites,
                        Duration requeueAfter) {
        this(phase, reason, diff, creates, lifecycle, deletes, pvcDeletes, recreates, inPlace, podWrites, statusWrites,
                requeueAfter, List.of());
    }

    /** This plan with {@code more} reasons after its own. */
    public CloneSetPlan withReasons(List<BlockReason> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<BlockReason> all = new ArrayList<>(reasons);
        all.addAll(more);
        return new CloneSetPlan(phase, reason, diff, creates, lifecycle, deletes, pvcDeletes, recreates, inPlace,
                podWrites, statusWrites, requeueAfter, all);
    }

    /** This plan with only {@code kept} of its in-place updates (the others wait for a budget). */
    public CloneSetPlan withInPlace(List<InPlace> kept) {
        return new CloneSetPlan(phase, reason, diff, creates, lifecycle, deletes, pvcDeletes, recreates,
                List.copyOf(kept), podWrites, statusWrites, requeueAfter, reasons);
    }

    public boolean hasActions() {
        return !creates.isEmpty() || !lifecycle.isEmpty() || !deletes.isEmpty() || !pvcDeletes.isEmpty()
                || !recreates.isEmpty() || !inPlace.isEmpty() || !podWrites.isEmpty() || !statusWrites.isEmpty();
    }

    /** This plan, looking again no later than {@code d} from now (zero or negative: no change). */
    public CloneSetPlan requeueWithin(Duration d) {
        if (d == null || d.isZero() || d.isNegative() || (!requeueAfter.isZero() && requeueAfter.compareTo(d) <= 0)) {
            return this;
        }
        return new CloneSetPlan(phase, reason, diff, creates, lifecycle, deletes, pvcDeletes, recreates, inPlace,
                podWrites, statusWrites, d, reasons);
    }

    /** A compact one-line description: the reason and the counts of each action. */
    public String summary() {
        List<String> parts = new ArrayList<>();
        count(parts, "create", creates);
        count(parts, "delete", deletes);
        count(parts, "lifecycle", lifecycle);
        count(parts, "recreate", recreates);
        count(parts, "delete pvc", pvcDeletes);
        count(parts, "in-place", inPlace);
        count(parts, "continue in-place", podWrites);
        count(parts, "in-place ready", statusWrites);
        return phase + ": " + reason + (parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")")
                + (requeueAfter.isZero() ? "" : "; again in " + requeueAfter.toMillis() + " ms");
    }

    /**
     * This plan as {@code /debug/plans} shows it: the summary, the numbers of the diff and one line per action
     * naming pods, PVCs, revisions and states. Never the pods themselves: their specs carry env values and secrets.
     */
    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(summary()).reasons(reasons);
        if (diff != null) {
            b.count("scaleUpNum", diff.scaleUpNum()).count("scaleUpNumOldRevision", diff.scaleUpNumOldRevision())
                    .count("scaleDownNum", diff.scaleDownNum())
                    .count("scaleDownNumOldRevision", diff.scaleDownNumOldRevision())
                    .count("scaleUpLimit", diff.scaleUpLimit()).count("deleteReadyLimit", diff.deleteReadyLimit())
                    .count("useSurge", diff.useSurge()).count("useSurgeOldRevision", diff.useSurgeOldRevision())
                    .count("updateNum", diff.updateNum()).count("updateMaxUnavailable", diff.updateMaxUnavailable());
        }
        creates.forEach(c -> b.action("create pod " + name(c.pod()) + " at revision " + revision(c.pod())
                + claims(" with new PVCs ", c.claims())));
        deletes.forEach(d -> b.action("delete pod " + name(d.pod()) + claims(" with PVCs ", d.claims())));
        lifecycle.forEach(l -> b.action("set lifecycle state of pod " + name(l.pod()) + " to " + l.state()
                + (l.markPodNotReady() ? " (KruisePodReady follows)" : "")));
        recreates.forEach(p -> b.action("mark pod " + name(p) + " for deletion (recreate at the update revision)"));
        pvcDeletes.forEach(c -> b.action("delete PVC " + c.getMetadata().getName()));
        inPlace.forEach(i -> b.action("update pod " + name(i.pod()) + " in place to revision " + i.spec().revision()
                + (i.spec().containerImages().isEmpty() ? "" : " (containers " + String.join(", ",
                new java.util.TreeSet<>(i.spec().containerImages().keySet())) + ")")));
        podWrites.forEach(w -> b.action("continue the in-place update of pod " + name(w.before())));
        statusWrites.forEach(p -> b.action("set InPlaceUpdateReady on pod " + name(p)));
        if (!requeueAfter.isZero()) {
            b.count("requeueAfterSeconds", requeueAfter.toSeconds());
        }
        return b.build();
    }

    private static String name(Pod pod) {
        String name = pod.getMetadata().getName();
        return name != null ? name : pod.getMetadata().getGenerateName() + "*";
    }

    private static String revision(Pod pod) {
        String revision = Pods.revisionLabel(pod);
        return revision == null ? "(none)" : revision;
    }

    private static String claims(String prefix, List<PersistentVolumeClaim> claims) {
        return claims.isEmpty() ? "" : prefix + String.join(", ", claims.stream().map(c -> c.getMetadata().getName()).toList());
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
        final List<InPlace> inPlace = new ArrayList<>();
        final List<PodWrite> podWrites = new ArrayList<>();
        final List<Pod> statusWrites = new ArrayList<>();
        final List<BlockReason> reasons = new ArrayList<>();
        Duration requeueAfter = Duration.ZERO;

        Builder(Phase phase, CloneSetDiff diff) {
            this.phase = phase;
            this.diff = diff;
        }

        boolean hasActions() {
            return !creates.isEmpty() || !lifecycle.isEmpty() || !deletes.isEmpty() || !pvcDeletes.isEmpty()
                    || !recreates.isEmpty() || !inPlace.isEmpty() || !podWrites.isEmpty() || !statusWrites.isEmpty();
        }

        void requeueWithin(Duration d) {
            if (d != null && !d.isZero() && !d.isNegative() && (requeueAfter.isZero() || d.compareTo(requeueAfter) < 0)) {
                requeueAfter = d;
            }
        }

        CloneSetPlan build(String reason) {
            return new CloneSetPlan(phase, reason, diff, creates, lifecycle, deletes, pvcDeletes, recreates, inPlace,
                    podWrites, statusWrites, requeueAfter, reasons);
        }
    }

    private static void count(List<String> parts, String what, List<?> items) {
        if (!items.isEmpty()) {
            parts.add(what + " " + items.size());
        }
    }
}
