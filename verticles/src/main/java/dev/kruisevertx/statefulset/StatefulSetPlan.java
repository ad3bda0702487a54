package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.DesiredOrdinals;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.reason.BlockReason;

import java.time.Duration;
import java.util.List;

/**
 * What one reconcile of an Advanced StatefulSet will do, decided by {@link StatefulSetPlanner} from the snapshot
 * alone: which ordinals move (the first four lists, and the summary made from them), and how each is carried out and
 * what waits ({@link #actions()}).
 *
 * @param creates      pods (with their PVCs) to create, in order
 * @param deletes      pods to delete: failed ones, condemned ones (scale-down, reserved) and ones recreated by an update
 * @param inPlace      pods to update in place to the update revision
 * @param resize       pods whose PVCs are expanded to the grown volumeClaimTemplates (OnPodRollingUpdate)
 * @param summary      one line for {@code /debug/plans} and the log
 * @param requeueAfter when to look again although no event will come (minReadySeconds or an in-place grace period
 *                     running out); zero for never
 * @param actions      the writes that carry this out, and the pods held back (by a hook, a stale PVC...)
 * @param reasons      what held back pods the spec asks to create, delete or update (partition, maxUnavailable, a
 *                     hook, ...): what {@code kubectl kruise why} prints
 */
public record StatefulSetPlan(List<Create> creates, List<Delete> deletes, List<String> inPlace, List<String> resize,
                              String summary, Duration requeueAfter, StatefulSetActions actions,
                              List<BlockReason> reasons) {
    /** Lists in a summary show this many names, then the count. */
    private static final int SUMMARY_NAMES = 10;

    public StatefulSetPlan {
        creates = List.copyOf(creates);
        deletes = List.copyOf(deletes);
        inPlace = List.copyOf(inPlace);
        resize = List.copyOf(resize);
        reasons = reasons == null ? List.of() : List.copyOf(reasons);
    }

    /** Which ordinals move, before it was decided how. */
    public StatefulSetPlan(List<Create> creates, List<Delete> deletes, List<String> inPlace, List<String> resize,
                           String summary, Duration requeueAfter) {
        this(creates, deletes, inPlace, resize, summary, requeueAfter, StatefulSetActions.NONE, List.of());
    }

    /** Which ordinals move and what held others back, before it was decided how. */
    public StatefulSetPlan(List<Create> creates, List<Delete> deletes, List<String> inPlace, List<String> resize,
                           String summary, Duration requeueAfter, List<BlockReason> reasons) {
        this(creates, deletes, inPlace, resize, summary, requeueAfter, StatefulSetActions.NONE, reasons);
    }

    /** This plan with {@code more} reasons after its own. */
    public StatefulSetPlan withReasons(List<BlockReason> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<BlockReason> all = new java.util.ArrayList<>(reasons);
        all.addAll(more);
        return new StatefulSetPlan(creates, deletes, inPlace, resize, summary, requeueAfter, actions, all);
    }

    /** A pod to create at {@code revision}. */
    public record Create(int ordinal, String name, String revision) {
    }

    /** A pod to delete and why. */
    public record Delete(String name, Reason reason) {
    }

    public enum Reason {
        /** The pod failed or succeeded; it is replaced by a fresh pod of the same ordinal. */
        FAILED,
        /** Its ordinal is no longer run (scale-down or reserveOrdinals). */
        CONDEMNED,
        /** Recreated at the update revision. */
        UPDATE
    }

    /** This plan, looking again no later than {@code d} from now (zero or negative: no change). */
    public StatefulSetPlan requeueWithin(Duration d) {
        if (d == null || d.isZero() || d.isNegative() || (!requeueAfter.isZero() && requeueAfter.compareTo(d) <= 0)) {
            return this;
        }
        return new StatefulSetPlan(creates, deletes, inPlace, resize, summary, d, actions, reasons);
    }

    /** This plan carried out by {@code how}. */
    StatefulSetPlan withActions(StatefulSetActions how) {
        return new StatefulSetPlan(creates, deletes, inPlace, resize, summary, requeueAfter, how, reasons);
    }

    /** This plan as {@code /debug/plans} shows it: one line per action, naming pods, ordinals and revisions. */
    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(summary).reasons(reasons);
        creates.forEach(c -> b.action("create pod " + c.name() + " (ordinal " + c.ordinal() + ") at revision "
                + c.revision()));
        deletes.forEach(d -> b.action("delete pod " + d.name() + " (" + d.reason() + ")"));
        inPlace.forEach(name -> b.action("update pod " + name + " in place to the update revision"));
        resize.forEach(name -> b.action("expand the PVCs of pod " + name));
        if (requeueAfter != null && !requeueAfter.isZero()) {
            b.count("requeueAfterSeconds", requeueAfter.toSeconds());
        }
        return b.build();
    }

    public boolean isEmpty() {
        return creates.isEmpty() && deletes.isEmpty() && inPlace.isEmpty() && resize.isEmpty();
    }

    /** The one-line summary: the desired ordinals, each list abbreviated, and what the set waits for. */
    static String summary(DesiredOrdinals desired, List<Create> creates, List<Delete> deletes, List<String> inPlace,
                          List<String> resize, String note) {
        StringBuilder b = new StringBuilder();
        b.append("desired ordinals ").append(desired);
        if (!creates.isEmpty()) {
            b.append("; create ").append(abbreviated(creates.stream().map(Create::name).toList()));
        }
        if (!deletes.isEmpty()) {
            b.append("; delete ").append(abbreviated(deletes.stream().map(d -> d.name() + " (" + d.reason() + ")")
                    .toList()));
        }
        if (!inPlace.isEmpty()) {
            b.append("; update in place ").append(abbreviated(inPlace));
        }
        if (!resize.isEmpty()) {
            b.append("; resize PVCs of ").append(abbreviated(resize));
        }
        if (note != null) {
            b.append("; ").append(note);
        }
        return b.toString();
    }

    /** A list as {@code [a, b, ...]}, the first few only when it is long (500 pods to create make no summary). */
    static String abbreviated(List<?> items) {
        if (items.size() <= SUMMARY_NAMES) {
            return items.toString();
        }
        String head = items.subList(0, SUMMARY_NAMES).toString();
        return head.substring(0, head.length() - 1) + ", ... (" + items.size() + " in all)]";
    }
}
