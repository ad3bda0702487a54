package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetStatus;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The status of a DaemonSet from its nodes and pods (upstream's updateDaemonSetStatus). Pure. */
final class DaemonSetStatusCalculator {
    private DaemonSetStatusCalculator() {
    }

    record Result(DaemonSetStatus status, Duration requeueAfter) {
    }

    static Result calculate(DaemonSet set, DaemonNodes nodes, String updateRevision, boolean syncedGeneration, Instant now) {
        int minReady = set.getSpec().getMinReadySeconds();
        int desired = 0;
        int current = 0;
        int misscheduled = 0;
        int ready = 0;
        int available = 0;
        int updated = 0;
        List<Pod> readyNotAvailable = new ArrayList<>();
        for (String node : nodes.nodes.keySet()) {
            List<Pod> pods = nodes.podsOn(node);
            boolean scheduled = !pods.isEmpty();
            if (nodes.shouldRun(node)) {
                desired++;
                if (scheduled) {
                    current++;
                    Pod pod = pods.get(0);
                    if (Pods.isReady(pod)) {
                        ready++;
                        if (nodes.available(pod) && inPlaceReady(pod)) {
                            available++;
                        } else {
                            readyNotAvailable.add(pod);
                        }
                    }
                    if (Pods.atRevision(pod, updateRevision)) {
                        updated++;
                    }
                }
            } else if (scheduled) {
                misscheduled++;
            }
        }
        DaemonSetStatus old = set.getStatus();
        DaemonSetStatus s = new DaemonSetStatus();
        s.setDesiredNumberScheduled(desired);
        s.setCurrentNumberScheduled(current);
        s.setNumberMisscheduled(misscheduled);
        s.setNumberReady(ready);
        s.setNumberAvailable(available);
        s.setUpdatedNumberScheduled(updated);
        s.setNumberUnavailable(desired - available);
        s.setUpdateRevision(updateRevision);
        long generation = set.getMetadata().getGeneration() == null ? 0 : set.getMetadata().getGeneration();
        s.setObservedGeneration(syncedGeneration ? generation : old == null ? 0 : old.getObservedGeneration());
        if (old != null) {
            s.setCollisionCount(old.getCollisionCount());
            s.setConditions(old.getConditions());
        }
        Duration requeue = minReady > 0 ? Pods.nextAvailableIn(readyNotAvailable, minReady, now) : Duration.ZERO;
        return new Result(s, requeue);
    }

    /** Not in the middle of an in-place update: with availability, upstream's isDaemonPodAvailable. */
    static boolean inPlaceReady(Pod pod) {
        if (Pods.hasReadinessGate(pod, WellKnown.INPLACE_UPDATE_READY_CONDITION)) {
            return Pods.condition(pod, WellKnown.INPLACE_UPDATE_READY_CONDITION)
                    .map(c -> "True".equals(c.getStatus())).orElse(true);
        }
        return true;
    }
}
