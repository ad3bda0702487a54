package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentCondition;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentScheduleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentStatus;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetCondition;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetStatus;
import dev.kruisevertx.inplace.RevisionLabels;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Adaptive schedule strategy over all subsets of one UnitedDeployment, as OpenKruise v1.9.0's reconcile runs it
 * before and after the allocation. Pure: the status (as {@link UnitedDeploymentConditions#initStatus} prepared it,
 * changed in place), the kept subset workloads with their pods and {@code now} in; the allocator's view of every
 * subset, the pods whose reserved label must change and when to look again out.
 *
 * <ul>
 *   <li>Default mode ({@link AdaptiveSchedulability}): a subset with pods pending past
 *       {@code rescheduleCriticalSeconds} turns Schedulable=False (reason {@code reschedule}) and stays so for
 *       {@code unschedulableDuration}; the allocator holds it to its ready pods.</li>
 *   <li>Reservation mode ({@code reserveUnschedulablePods}): every pod carries
 *       {@code apps.kruise.io/united-deployment-reserved-pod}. A pod created while its subset is marked
 *       unschedulable is reserved at once; otherwise a pod of the updated revision is reserved once it failed to
 *       schedule for {@code rescheduleCriticalSeconds}, a pod of an older revision once the update has lasted that
 *       long; a reserved pod leaves the state when it has run Ready at the updated revision for
 *       {@code unschedulableDuration}. A subset with reserved pods is Schedulable=False ("reserved pods found"),
 *       else True ("no reserved pods"); the allocator gives its reserved pods again to later subsets as temporary
 *       pods.</li>
 * </ul>
 */
public final class AdaptiveScheduling {
    static final String RESCHEDULE = "reschedule";

    private AdaptiveScheduling() {
    }

    /**
     * One kept subset workload and the pods it controls.
     *
     * @param podRevision the revision label an up-to-date pod of this workload carries: a CloneSet labels its pods
     *                    with its own update revision, not the UnitedDeployment's, so this is the CloneSet's
     *                    {@code status.updateRevision} while the CloneSet is at the UnitedDeployment's revision (null
     *                    when it is not: none of its pods is up to date); null to compare with the UnitedDeployment's
     *                    revision as OpenKruise does
     */
    public record SubsetInput(SubsetWorkload workload, List<Pod> pods, String podRevision) {
        public SubsetInput(SubsetWorkload workload, List<Pod> pods) {
            this(workload, pods, null);
        }
    }

    /**
     * @param states       the allocator's view of every existing subset, by subset name
     * @param reservedPods reservation mode: reserved pods per subset
     * @param pendingPods  default mode: pods pending past the critical duration per subset
     * @param labelPods    reservation mode: pod name to the reserved label value ("true"/"false") to write
     * @param maxUnavailable reservation mode: the maxUnavailable an unschedulable subset's workload gets when it is
     *                     updated (its pods not ready plus its old-revision pods whose update timed out), so its
     *                     pending pods do not hold the update back
     * @param recheckIn    when a pod or a condition changes state by the clock alone, or null
     */
    public record Outcome(Map<String, SubsetState> states, Map<String, Integer> reservedPods,
                          Map<String, Integer> pendingPods, Map<String, String> labelPods,
                          Map<String, Integer> maxUnavailable, Duration recheckIn) {

        /** The subsets the allocator treats as unschedulable. */
        public List<String> unschedulable() {
            return states.entrySet().stream().filter(e -> e.getValue().unschedulable()).map(Map.Entry::getKey).toList();
        }
    }

    /**
     * Evaluates every subset and sets its Schedulable condition in {@code status} (which must hold a subset status
     * for each; see {@link UnitedDeploymentConditions#initStatus}).
     *
     * @param updatedRevision the revision the subsets should be at
     */
    public static Outcome evaluate(UnitedDeploymentScheduleStrategy strategy, UnitedDeploymentStatus status,
                                   Map<String, SubsetInput> subsets, String updatedRevision, Instant now) {
        Map<String, SubsetState> states = new LinkedHashMap<>();
        Map<String, Integer> reserved = new LinkedHashMap<>();
        Map<String, Integer> pending = new LinkedHashMap<>();
        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, Integer> maxUnavailable = new LinkedHashMap<>();
        Duration recheck = null;
        UnitedDeploymentCondition updated = UnitedDeploymentConditions.get(status, UnitedDeploymentCondition.UNITED_DEPLOYMENT_UPDATED);
        for (Map.Entry<String, SubsetInput> e : subsets.entrySet()) {
            String name = e.getKey();
            SubsetWorkload w = e.getValue().workload();
            UnitedDeploymentSubsetStatus ss = UnitedDeploymentConditions.subsetStatus(status, name);
            UnitedDeploymentSubsetCondition schedulable = condition(ss);
            if (!strategy.reservationMode()) {
                AdaptiveSchedulability.Result r = AdaptiveSchedulability.evaluate(strategy, schedulable, w.replicas(),
                        w.readyReplicas(), e.getValue().pods(), now);
                if (r.status() != null) {
                    setCondition(ss, r.status(), r.reason(), r.message(), now);
                }
                states.put(name, new SubsetState(w.specReplicas(), w.readyReplicas(), r.unschedulable(), false, 0));
                pending.put(name, r.pendingPods());
                recheck = min(recheck, r.recheckIn());
                continue;
            }
            boolean marked = schedulable != null && "False".equals(schedulable.getStatus());
            Duration hold = strategy.unschedulableDuration();
            int reservedCount = 0;
            int updateTimeouts = 0;
            for (Pod pod : e.getValue().pods()) {
                String label = label(pod);
                boolean old = "true".equals(label);
                if (marked && label == null) {
                    // Created while the subset is marked: reserved until it proves itself, so the temporary pods
                    // elsewhere stay until it runs.
                    reservedCount++;
                    labels.put(pod.getMetadata().getName(), "true");
                    recheck = min(recheck, hold);
                    continue;
                }
                String podRevision = e.getValue().podRevision();
                boolean upToDate = podRevision != null
                        ? !podRevision.isEmpty() && RevisionLabels.cloneSet(false).matches(pod, podRevision)
                        : !updatedRevision.equals(w.revision()) ? false
                        : updatedRevision.equals(revisionOf(pod));
                Check c = reservedNow(pod, upToDate, updated, strategy.rescheduleCriticalDuration(), hold, now);
                if (c.reserved()) {
                    reservedCount++;
                }
                if (c.updateTimeout()) {
                    updateTimeouts++;
                }
                if (c.checkAfter() != null && !c.checkAfter().isNegative() && !c.checkAfter().isZero()) {
                    recheck = min(recheck, c.checkAfter());
                }
                if (c.reserved() != old || label == null) {
                    labels.put(pod.getMetadata().getName(), c.reserved() ? "true" : "false");
                }
            }
            if (reservedCount > 0) {
                setCondition(ss, "False", RESCHEDULE, "reserved pods found", now);
            } else {
                setCondition(ss, "True", RESCHEDULE, "no reserved pods", now);
            }
            reserved.put(name, reservedCount);
            states.put(name, new SubsetState(w.specReplicas(), w.readyReplicas(), reservedCount > 0, marked,
                    reservedCount));
            if (reservedCount > 0) {
                maxUnavailable.put(name, Math.max(0, w.specReplicas() - w.readyReplicas() + updateTimeouts));
            }
        }
        return new Outcome(states, reserved, pending, labels, maxUnavailable, recheck);
    }

    /**
     * Reservation mode after the allocation: a subset that just recovered (marked but without reserved pods) and is
     * given more replicas is marked again, so the pods it is about to create count as reserved until they run and
     * the temporary pods elsewhere are not removed too early.
     */
    public static void afterAllocation(UnitedDeploymentScheduleStrategy strategy, UnitedDeploymentStatus status,
                                       Outcome outcome, Map<String, Integer> nextReplicas, Instant now) {
        if (!strategy.reservationMode()) {
            return;
        }
        outcome.states().forEach((name, s) -> {
            Integer next = nextReplicas.get(name);
            if (!s.unschedulable() && s.markedAsUnschedulable() && next != null && next > s.specReplicas()) {
                setCondition(UnitedDeploymentConditions.subsetStatus(status, name), "False", RESCHEDULE,
                        "subset just recovered scaled up", now);
            }
        });
    }

    record Check(boolean reserved, boolean updateTimeout, Duration checkAfter) {
    }

    /** OpenKruise's CheckPodReallyInReservedStatus; {@code hold} is how long a reserved pod must run Ready to leave. */
    static Check reservedNow(Pod pod, boolean atUpdated, UnitedDeploymentCondition updated, Duration critical,
                             Duration hold, Instant now) {
        if ("true".equals(label(pod))) {
            if (pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase()) && atUpdated) {
                PodCondition ready = podCondition(pod, "Ready");
                if (ready != null && "True".equals(ready.getStatus())) {
                    Instant since = parse(ready.getLastTransitionTime());
                    Instant out = (since == null ? now : since).plus(hold);
                    return out.isBefore(now) ? new Check(false, false, null)
                            : new Check(true, false, Duration.between(now, out));
                }
            }
            return new Check(true, false, hold);
        }
        if (atUpdated) {
            Duration left = AdaptiveSchedulability.untilPendingTimeout(pod, critical, now);
            if (left == null) {
                return new Check(false, false, null);
            }
            return left.isZero() ? new Check(true, false, hold) : new Check(false, false, left);
        }
        // An older revision: reserved once the update has lasted the critical duration.
        if (pod.getMetadata().getDeletionTimestamp() != null || updated == null) {
            return new Check(false, false, null);
        }
        Instant since = parse(updated.getLastTransitionTime());
        Instant timeout = (since == null ? now : since).plus(critical);
        if (timeout.isBefore(now)) {
            return new Check(true, true, hold);
        }
        return new Check(false, false, Duration.between(now, timeout));
    }

    private static String revisionOf(Pod pod) {
        return pod.getMetadata().getLabels() == null ? null
                : pod.getMetadata().getLabels().get(UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL);
    }

    static String label(Pod pod) {
        return pod.getMetadata().getLabels() == null ? null
                : pod.getMetadata().getLabels().get(UnitedDeployment.RESERVED_POD_LABEL);
    }

    private static UnitedDeploymentSubsetCondition condition(UnitedDeploymentSubsetStatus ss) {
        if (ss.getConditions() == null) {
            return null;
        }
        return ss.getConditions().stream().filter(c -> UnitedDeploymentSubsetCondition.SCHEDULABLE.equals(c.getType()))
                .findFirst().orElse(null);
    }

    /** OpenKruise's SetCondition: no change for the same status and reason, else a new transition time. */
    static void setCondition(UnitedDeploymentSubsetStatus ss, String status, String reason, String message, Instant now) {
        List<UnitedDeploymentSubsetCondition> conditions = ss.getConditions() == null ? new ArrayList<>()
                : new ArrayList<>(ss.getConditions());
        UnitedDeploymentSubsetCondition current = conditions.stream()
                .filter(c -> UnitedDeploymentSubsetCondition.SCHEDULABLE.equals(c.getType())).findFirst().orElse(null);
        if (current != null && status.equals(current.getStatus()) && reason.equals(current.getReason())) {
            return;
        }
        if (current == null) {
            current = new UnitedDeploymentSubsetCondition();
            current.setType(UnitedDeploymentSubsetCondition.SCHEDULABLE);
            conditions.add(current);
        }
        current.setLastTransitionTime(UnitedDeploymentConditions.timestamp(now));
        current.setStatus(status);
        current.setReason(reason);
        current.setMessage(message);
        ss.setConditions(conditions);
    }

    private static PodCondition podCondition(Pod pod, String type) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    private static Duration min(Duration a, Duration b) {
        if (b == null) {
            return a;
        }
        return a == null || b.compareTo(a) < 0 ? b : a;
    }

    private static Instant parse(String timestamp) {
        if (timestamp == null || timestamp.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(timestamp);
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }
}
