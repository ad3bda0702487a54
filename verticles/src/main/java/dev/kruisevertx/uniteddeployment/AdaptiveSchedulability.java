package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentScheduleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Whether a subset counts as unschedulable under the default Adaptive strategy, as OpenKruise v1.9.0 decides it.
 * Pure: the subset's Schedulable condition, its counts and pods and {@code now} in, a {@link Result} out.
 *
 * <ul>
 *   <li>A subset whose Schedulable condition is False stays unschedulable for {@code unschedulableDuration} after
 *       the condition turned False; after that the condition becomes True (reason {@code recover}).</li>
 *   <li>While it has fewer ready than current pods, a pod that is Pending, unbound, not being deleted and has
 *       {@code PodScheduled=False/Unschedulable} for longer than {@code rescheduleCriticalSeconds} since its
 *       creation counts as a pending pod; any such pod makes the subset unschedulable (condition False, reason
 *       {@code reschedule}).</li>
 * </ul>
 * The allocator then holds an unschedulable subset to its ready pods, so the rest moves to the next subsets.
 */
public final class AdaptiveSchedulability {
    static final String RECOVER_REASON = "recover";
    static final String RESCHEDULE_REASON = "reschedule";

    private AdaptiveSchedulability() {
    }

    /**
     * @param unschedulable whether the allocator must treat the subset as unschedulable
     * @param pendingPods   pods pending past the critical duration
     * @param status        the Schedulable condition's status to write ("True"/"False"), or null for no change
     * @param reason        its reason
     * @param message       its message
     * @param recheckIn     when to look again (a pending pod reaching the critical duration, the condition expiring),
     *                      or null
     */
    public record Result(boolean unschedulable, int pendingPods, String status, String reason, String message,
                         Duration recheckIn) {
    }

    public static Result evaluate(UnitedDeploymentScheduleStrategy strategy, UnitedDeploymentSubsetCondition schedulable,
                                  int replicas, int readyReplicas, List<Pod> pods, Instant now) {
        boolean unschedulable = false;
        String status = null;
        String reason = null;
        String message = null;
        Duration recheck = null;
        Duration hold = strategy.unschedulableDuration();
        if (schedulable != null && "False".equals(schedulable.getStatus())) {
            Instant since = parse(schedulable.getLastTransitionTime());
            Instant recover = since == null ? now.plus(hold) : since.plus(hold);
            if (now.isBefore(recover)) {
                recheck = Duration.between(now, recover);
                unschedulable = true;
            } else {
                status = "True";
                reason = RECOVER_REASON;
                message = String.format(Locale.ROOT, "unschedulable subset recovered after %f seconds",
                        (double) hold.toMillis() / 1000);
            }
        }
        int pending = 0;
        if (readyReplicas < replicas) {
            Duration critical = strategy.rescheduleCriticalDuration();
            for (Pod pod : pods) {
                Duration left = untilPendingTimeout(pod, critical, now);
                if (left == null) {
                    continue;
                }
                if (left.isZero()) {
                    pending++;
                } else {
                    recheck = min(recheck, left);
                }
            }
            if (pending > 0) {
                unschedulable = true;
                status = "False";
                reason = RESCHEDULE_REASON;
                message = "timeout pending pods found";
                recheck = min(recheck, hold);
            }
        }
        return new Result(unschedulable, pending, status, reason, message, recheck);
    }

    /**
     * For a pod that failed to schedule: zero once it has been pending longer than {@code timeout} since its
     * creation, else the time left; null for any other pod.
     */
    static Duration untilPendingTimeout(Pod pod, Duration timeout, Instant now) {
        if (pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null
                || !"Pending".equals(pod.getStatus().getPhase())
                || (pod.getSpec() != null && pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty())) {
            return null;
        }
        List<PodCondition> conditions = pod.getStatus().getConditions();
        for (PodCondition c : conditions == null ? List.<PodCondition>of() : conditions) {
            if ("PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason())) {
                Instant created = parse(pod.getMetadata().getCreationTimestamp());
                Instant expected = (created == null ? now : created).plus(timeout);
                return expected.isBefore(now) ? Duration.ZERO : Duration.between(now, expected);
            }
        }
        return null;
    }

    private static Duration min(Duration a, Duration b) {
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
