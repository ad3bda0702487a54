package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentScheduleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentStatus;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.reason.BlockReason;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One whole UnitedDeployment decision, as OpenKruise v1.9.0's reconcile orders it: the status prepared
 * ({@link UnitedDeploymentConditions#initStatus}, UnitedDeploymentUpdated), the Adaptive strategy's view of each
 * subset ({@link AdaptiveScheduling}), the plan ({@link UnitedDeploymentPlanner}), the reservation step after the
 * allocation, the reasons and when to look again. Pure: {@code now} and the pods come in.
 *
 * @param plan       what to create, update and delete
 * @param status     the status to start the write from: the stored one with subset statuses for every subset and
 *                   the conditions this decision set
 * @param adaptive   the Adaptive evaluation, or null under the Fixed strategy
 * @param reasons    what holds pods back
 * @param recheckIn  when to decide again although nothing changed, or null
 */
public record UnitedDeploymentDecision(UnitedDeploymentPlan plan, UnitedDeploymentStatus status,
                                       AdaptiveScheduling.Outcome adaptive, List<BlockReason> reasons,
                                       Duration recheckIn) {

    /**
     * @param revision  the update revision (the ControllerRevision name) the subsets should be at
     * @param workloads the snapshot's subset workloads, their updated counts against {@code revision}
     */
    public static UnitedDeploymentDecision decide(UnitedDeployment ud, UnitedDeploymentSnapshot snapshot,
                                                  String revision, List<SubsetWorkload> workloads,
                                                  Function<String, List<Pod>> podsOfWorkload, Instant now) {
        UnitedDeploymentScheduleStrategy strategy = ud.spec().topology().scheduleStrategy();
        UnitedDeploymentStatus status = UnitedDeploymentConditions.initStatus(ud, now);
        UnitedDeploymentConditions.setUpdated(status, revision, now);
        AdaptiveScheduling.Outcome outcome = null;
        UnitedDeploymentPlan plan;
        Duration recheck = null;
        if (strategy.adaptiveMode()) {
            Map<String, AdaptiveScheduling.SubsetInput> inputs = new LinkedHashMap<>();
            kept(workloads).forEach((subset, w) -> inputs.put(subset,
                    new AdaptiveScheduling.SubsetInput(w, podsOfWorkload.apply(w.name()),
                            podRevision(snapshot, revision, w))));
            outcome = AdaptiveScheduling.evaluate(strategy, status, inputs, revision, now);
            plan = UnitedDeploymentPlanner.plan(ud.spec(), revision, workloads, outcome.states());
            if (plan.allocationError() == null) {
                AdaptiveScheduling.afterAllocation(strategy, status, outcome, plan.nextReplicas(), now);
            }
            recheck = outcome.recheckIn();
            if (scalesUp(plan, outcome)) {
                // New pods may fail to schedule: look again when they would count as pending.
                recheck = min(recheck, strategy.rescheduleCriticalDuration());
            }
        } else {
            plan = UnitedDeploymentPlanner.plan(ud.spec(), revision, workloads);
        }
        List<BlockReason> reasons = UnitedDeploymentReasons.of(ud.spec(), plan, kept(workloads), status,
                outcome);
        return new UnitedDeploymentDecision(plan, status, outcome, reasons, recheck);
    }

    /** The plan summary with the reasons and the Adaptive state of each subset: names, counts and reasons only. */
    public PlanSummary debugSummary() {
        PlanSummary base = UnitedDeploymentSnapshot.debugSummary(plan);
        if (adaptive == null) {
            return base.withReasons(reasons);
        }
        List<String> actions = new java.util.ArrayList<>(base.actions());
        int omitted = base.omittedActions();
        List<String> more = new java.util.ArrayList<>();
        adaptive.unschedulable().forEach(s -> more.add("subset " + s + " unschedulable"));
        adaptive.labelPods().forEach((pod, v) -> more.add("label pod " + pod + " reserved=" + v));
        for (String line : more) {
            if (actions.size() < PlanSummary.MAX_ACTIONS) {
                actions.add(line);
            } else {
                omitted++;
            }
        }
        return new PlanSummary(base.summary(), base.counts(), actions, omitted).withReasons(reasons);
    }

    /** The workload kept for each subset: the first by name, as the planner keeps it. */
    static Map<String, SubsetWorkload> kept(List<SubsetWorkload> workloads) {
        Map<String, SubsetWorkload> bySubset = new LinkedHashMap<>();
        workloads.stream().sorted(Comparator.comparing(SubsetWorkload::name))
                .forEach(w -> bySubset.putIfAbsent(w.subsetName(), w));
        return bySubset;
    }

    /**
     * The revision label the up-to-date pods of a CloneSet subset carry: its update revision once the CloneSet is
     * at the UnitedDeployment's revision (the CloneSet labels its pods with its own revision); "" (no pod matches)
     * before; null when the snapshot has no CloneSet of that name.
     */
    static String podRevision(UnitedDeploymentSnapshot snapshot, String revision, SubsetWorkload w) {
        var cloneSet = snapshot.cloneSets().get(w.name());
        if (cloneSet == null) {
            return null;
        }
        if (!revision.equals(w.revision()) || cloneSet.getStatus() == null
                || cloneSet.getStatus().getUpdateRevision() == null) {
            return "";
        }
        return cloneSet.getStatus().getUpdateRevision();
    }

    private static boolean scalesUp(UnitedDeploymentPlan plan, AdaptiveScheduling.Outcome outcome) {
        if (plan.creates().stream().anyMatch(c -> c.replicas() > 0)) {
            return true;
        }
        return plan.updates().stream().anyMatch(u -> {
            SubsetState s = outcome.states().get(u.subset());
            return s != null && u.replicas() > s.specReplicas();
        });
    }

    private static Duration min(Duration a, Duration b) {
        if (b == null) {
            return a;
        }
        return a == null || b.compareTo(a) < 0 ? b : a;
    }
}
