package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentScheduleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSpec;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentStatus;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetCondition;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetStatus;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.ReasonCode;
import dev.kruisevertx.controller.reason.Reasons;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What holds a UnitedDeployment's pods back, for {@code kubectl kruise why ud/NAME}. Pure; names, counts and
 * reasons only.
 *
 * <ul>
 *   <li>{@code Unschedulable}: a subset the Adaptive strategy holds as unschedulable (default mode: to its ready
 *       pods until its Schedulable condition expires; reservation mode: it has reserved pods whose replicas run as
 *       temporary pods in other subsets);</li>
 *   <li>{@code Partition}: {@code updateStrategy.manualUpdate.partitions} keeps a subset's pods at the old
 *       revision.</li>
 * </ul>
 * A subset workload's own holds (its maxUnavailable, minReadySeconds, hooks) are the subset's: {@code kubectl kruise
 * why cloneset/NAME} shows them.
 */
public final class UnitedDeploymentReasons {
    private UnitedDeploymentReasons() {
    }

    public static List<BlockReason> of(UnitedDeploymentSpec spec, UnitedDeploymentPlan plan,
                                       Map<String, SubsetWorkload> kept, UnitedDeploymentStatus status,
                                       AdaptiveScheduling.Outcome adaptive) {
        List<BlockReason> out = new ArrayList<>();
        if (adaptive != null) {
            UnitedDeploymentScheduleStrategy strategy = spec.topology().scheduleStrategy();
            for (String subset : adaptive.unschedulable()) {
                SubsetState s = adaptive.states().get(subset);
                if (strategy.reservationMode()) {
                    out.add(reserved(subset, adaptive.reservedPods().getOrDefault(subset, 0), strategy));
                } else {
                    out.add(held(subset, s.readyReplicas(), adaptive.pendingPods().getOrDefault(subset, 0),
                            until(status, subset, strategy.unschedulableDuration()), strategy));
                }
            }
        }
        if (plan.allocationError() == null) {
            for (Map.Entry<String, Integer> e : plan.nextPartitions().entrySet()) {
                SubsetWorkload w = kept.get(e.getKey());
                int partition = e.getValue();
                if (w == null || partition <= 0) {
                    continue;
                }
                int old = Math.min(partition, Math.max(0, w.replicas() - w.updatedReplicas()));
                if (old > 0) {
                    out.add(Reasons.partition("updateStrategy.manualUpdate.partitions." + e.getKey(), partition, old));
                }
            }
        }
        return out;
    }

    /** Default Adaptive mode: the subset is held to its ready pods until its Schedulable condition expires. */
    static BlockReason held(String subset, int ready, int pending, Instant until,
                            UnitedDeploymentScheduleStrategy strategy) {
        long critical = strategy.rescheduleCriticalDuration().toSeconds();
        long hold = strategy.unschedulableDuration().toSeconds();
        String cause = pending > 0 ? Reasons.pods(pending) + " pending longer than rescheduleCriticalSeconds " + critical
                : "pods were pending longer than rescheduleCriticalSeconds " + critical;
        Map<String, Long> numbers = new LinkedHashMap<>();
        numbers.put("pending", (long) pending);
        numbers.put("ready", (long) ready);
        numbers.put("rescheduleCriticalSeconds", critical);
        numbers.put("unschedulableDuration", hold);
        return new BlockReason(ReasonCode.UNSCHEDULABLE, "subset " + subset + " is unschedulable (" + cause
                + "): held at its " + ready + " ready, the rest goes to the other subsets"
                + (until == null ? "" : "; tried again at " + until + " (unschedulableDuration " + hold + "s)"),
                numbers, List.of());
    }

    /** Reservation mode: reserved pods stay; temporary pods stand in for them in other subsets. */
    static BlockReason reserved(String subset, int reserved, UnitedDeploymentScheduleStrategy strategy) {
        long critical = strategy.rescheduleCriticalDuration().toSeconds();
        long hold = strategy.unschedulableDuration().toSeconds();
        Map<String, Long> numbers = new LinkedHashMap<>();
        numbers.put("reserved", (long) reserved);
        numbers.put("rescheduleCriticalSeconds", critical);
        numbers.put("unschedulableDuration", hold);
        return new BlockReason(ReasonCode.UNSCHEDULABLE, "subset " + subset + " has " + Reasons.pods(reserved)
                + " reserved (not running within rescheduleCriticalSeconds " + critical + ", or Ready for less than "
                + "unschedulableDuration " + hold + "s): temporary pods stand in for them in the other subsets",
                numbers, List.of());
    }

    /** When the subset's Schedulable=False condition expires. */
    private static Instant until(UnitedDeploymentStatus status, String subset, Duration hold) {
        if (status.getSubsetStatuses() == null) {
            return null;
        }
        for (UnitedDeploymentSubsetStatus ss : status.getSubsetStatuses()) {
            if (!subset.equals(ss.getName()) || ss.getConditions() == null) {
                continue;
            }
            for (UnitedDeploymentSubsetCondition c : ss.getConditions()) {
                if (UnitedDeploymentSubsetCondition.SCHEDULABLE.equals(c.getType()) && "False".equals(c.getStatus())
                        && c.getLastTransitionTime() != null) {
                    try {
                        return Instant.parse(c.getLastTransitionTime()).plus(hold);
                    } catch (java.time.format.DateTimeParseException e) {
                        return null;
                    }
                }
            }
        }
        return null;
    }
}
