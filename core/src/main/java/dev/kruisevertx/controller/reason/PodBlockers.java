package dev.kruisevertx.controller.reason;

import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reasons a workload's own pods give for not being available, whatever the controller decided: pods the scheduler
 * cannot place (its message from the PodScheduled condition) and ready pods waiting out minReadySeconds. Every
 * workload controller adds these to its plan's reasons, because they are what its maxUnavailable and ordered steps
 * wait for. Walks the pods once; keeps names only.
 */
public final class PodBlockers {
    private PodBlockers() {
    }

    public static List<BlockReason> of(Iterable<Pod> pods, int minReadySeconds, Instant now) {
        List<String> unschedulable = new ArrayList<>();
        long unschedulableCount = 0;
        String schedulerMessage = null;
        List<String> notYetAvailable = new ArrayList<>();
        long waitingCount = 0;
        Duration next = null;
        for (Pod p : pods) {
            if (Pods.isTerminating(p)) {
                continue;
            }
            Optional<PodCondition> scheduled = Pods.condition(p, "PodScheduled");
            if (scheduled.isPresent() && "False".equals(scheduled.get().getStatus())
                    && "Unschedulable".equals(scheduled.get().getReason())) {
                unschedulableCount++;
                if (unschedulable.size() < BlockReason.MAX_OBJECTS) {
                    unschedulable.add(p.getMetadata().getName());
                }
                if (schedulerMessage == null) {
                    schedulerMessage = scheduled.get().getMessage();
                }
                continue;
            }
            Duration left = timeLeft(p, minReadySeconds, now);
            if (left != null) {
                waitingCount++;
                if (notYetAvailable.size() < BlockReason.MAX_OBJECTS) {
                    notYetAvailable.add(p.getMetadata().getName());
                }
                next = next == null || left.compareTo(next) < 0 ? left : next;
            }
        }
        List<BlockReason> out = new ArrayList<>(2);
        if (unschedulableCount > 0) {
            out.add(Reasons.unschedulable(sorted(unschedulable), unschedulableCount, schedulerMessage));
        }
        if (waitingCount > 0) {
            out.add(Reasons.minReadySeconds(minReadySeconds, sorted(notYetAvailable), waitingCount, next));
        }
        return out;
    }

    /** Until a ready pod turns available; null when it is available already or not ready. */
    static Duration timeLeft(Pod p, int minReadySeconds, Instant now) {
        if (minReadySeconds <= 0 || !Pods.isRunningAndReady(p)) {
            return null;
        }
        Instant since = Pods.readySince(p);
        if (since == null) {
            return null;
        }
        Duration left = Duration.between(now, since.plusSeconds(minReadySeconds));
        return left.isNegative() || left.isZero() ? null : left;
    }

    private static List<String> sorted(List<String> names) {
        List<String> s = new ArrayList<>(names);
        s.sort(null);
        return s;
    }
}
