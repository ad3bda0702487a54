package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.AdaptiveWorkloadSpreadStrategy;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadScheduleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadStatus;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubset;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetCondition;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetStatus;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The WorkloadSpread status as OpenKruise's controller computes it from the pods it sees, per subset: the active
 * pods ({@code replicas}); {@code missingReplicas} = the subset's {@code maxReplicas} (scaled on the workload's
 * replicas, rounded up; -1 without a limit) minus the active pods, plus the pods still recorded as being deleted,
 * minus those still recorded as being created, never below 0. A creation record ends when the pod (by name, or by the
 * generated id its annotation carries) is seen, or {@value #CREATE_SECONDS}s after the webhook wrote it; a deletion
 * record ends when the pod is no longer seen active, or {@value #DELETE_SECONDS}s after. With an Adaptive strategy and
 * {@code rescheduleCriticalSeconds}, a subset other than the last one turns Schedulable=False while one of its pods
 * has been unschedulable longer than that (those pods are returned for deletion) and back to True
 * {@link WorkloadSpreads#MAX_SCHEDULED_FAILED_DURATION} after; the last subset is always Schedulable. Pure: the
 * caller writes the status, emits the events, deletes the pods and requeues.
 */
public final class SubsetStatusCalculation {
    static final long CREATE_SECONDS = 30;
    static final long DELETE_SECONDS = 15;

    private SubsetStatusCalculation() {
    }

    /** An event the controller emits (type Normal or Warning). */
    public record Event(String type, String reason, String message) {
    }

    /**
     * The new status and what the controller does besides writing it.
     *
     * @param status             the whole new status
     * @param scheduleFailedPods pods of each subset unschedulable past rescheduleCriticalSeconds (to delete)
     * @param requeueAfter       when a record or condition expires next, if any does
     * @param events             expired records and recovered subsets
     */
    public record Result(WorkloadSpreadStatus status, Map<String, List<Pod>> scheduleFailedPods,
                         Optional<Duration> requeueAfter, List<Event> events) {
    }

    /**
     * @param versionedPods    the workload's (filtered) pods by version, then by subset name
     * @param subsetPods       the same pods by subset name, all versions together
     * @param workloadReplicas the workload's (filtered) replicas
     */
    public static Result calculate(WorkloadSpread ws, Map<String, Map<String, List<Pod>>> versionedPods,
                                   Map<String, List<Pod>> subsetPods, int workloadReplicas, Instant now) {
        Acc acc = new Acc(ws, now);
        WorkloadSpreadStatus old = ws.status();
        WorkloadSpreadStatus status = new WorkloadSpreadStatus();
        status.setObservedGeneration(ws.getMetadata() == null ? null : ws.getMetadata().getGeneration());
        Map<String, List<Pod>> scheduleFailed = new LinkedHashMap<>();
        status.setSubsetStatuses(subsetStatuses(ws, old.getSubsetStatuses(), subsetPods, workloadReplicas, acc,
                scheduleFailed));
        Map<String, List<WorkloadSpreadSubsetStatus>> versioned = new LinkedHashMap<>();
        Map<String, List<WorkloadSpreadSubsetStatus>> oldVersioned = old.getVersionedSubsetStatuses() == null
                ? Map.of() : old.getVersionedSubsetStatuses();
        for (Map.Entry<String, Map<String, List<Pod>>> e : versionedPods.entrySet()) {
            versioned.put(e.getKey(), subsetStatuses(ws, oldVersioned.get(e.getKey()), e.getValue(),
                    workloadReplicas, acc, new LinkedHashMap<>()));
        }
        for (Map.Entry<String, List<WorkloadSpreadSubsetStatus>> e : oldVersioned.entrySet()) {
            if (versionedPods.containsKey(e.getKey())) {
                continue;
            }
            // A version without pods keeps its entry only while it still has pods or records.
            List<WorkloadSpreadSubsetStatus> left = subsetStatuses(ws, e.getValue(), Map.of(), workloadReplicas, acc,
                    new LinkedHashMap<>());
            if (!isEmpty(left)) {
                versioned.put(e.getKey(), left);
            }
        }
        status.setVersionedSubsetStatuses(versioned.isEmpty() ? null : versioned);
        return new Result(status, scheduleFailed, acc.requeue, acc.events);
    }

    /**
     * The entries of every subset in spec order; empty when a subset's limit cannot be read (the webhook refuses
     * such a WorkloadSpread).
     */
    static List<WorkloadSpreadSubsetStatus> subsetStatuses(WorkloadSpread ws,
                                                           List<WorkloadSpreadSubsetStatus> oldStatuses,
                                                           Map<String, List<Pod>> pods, int workloadReplicas,
                                                           Acc acc, Map<String, List<Pod>> scheduleFailed) {
        List<WorkloadSpreadSubset> subsets = ws.spec().subsets();
        Map<String, WorkloadSpreadSubsetStatus> oldByName = new LinkedHashMap<>();
        if (oldStatuses != null) {
            for (WorkloadSpreadSubsetStatus s : oldStatuses) {
                oldByName.put(s.getName(), s);
            }
        }
        int rescheduleSeconds = rescheduleCriticalSeconds(ws);
        List<WorkloadSpreadSubsetStatus> out = new ArrayList<>();
        for (int i = 0; i < subsets.size(); i++) {
            WorkloadSpreadSubset subset = subsets.get(i);
            List<Pod> subsetPods = pods.getOrDefault(subset.getName(), List.of());
            WorkloadSpreadSubsetStatus previous = oldByName.get(subset.getName());
            WorkloadSpreadSubsetStatus status = subsetStatus(subset, subsetPods, previous, workloadReplicas, acc);
            if (status == null) {
                return new ArrayList<>();
            }
            if (rescheduleSeconds > 0) {
                if (i != subsets.size() - 1) {
                    scheduleFailed.put(subset.getName(), reschedule(subsetPods, status, previous, rescheduleSeconds,
                            acc));
                } else {
                    WorkloadSpreadSubsetCondition oldCondition = condition(previous);
                    if (oldCondition != null) {
                        setCondition(status, oldCondition.copy());
                    }
                    setCondition(status, newCondition("True", acc.now));
                }
            }
            out.add(status);
        }
        return out;
    }

    /** One subset's entry; null when its maxReplicas cannot be read or is negative. */
    static WorkloadSpreadSubsetStatus subsetStatus(WorkloadSpreadSubset subset, List<Pod> pods,
                                                   WorkloadSpreadSubsetStatus previous, int workloadReplicas,
                                                   Acc acc) {
        int max;
        if (subset.getMaxReplicas() == null) {
            max = -1;
        } else {
            OptionalInt scaled = WorkloadSpreads.scaled(subset.getMaxReplicas(), workloadReplicas, true);
            if (scaled.isEmpty() || scaled.getAsInt() < 0) {
                return null;
            }
            max = scaled.getAsInt();
        }
        WorkloadSpreadSubsetStatus status = new WorkloadSpreadSubsetStatus(subset.getName(), 0, max);
        Map<String, String> oldCreating = previous == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(previous.creatingPods());
        Map<String, String> oldDeleting = previous == null ? Map.of() : previous.deletingPods();
        Map<String, String> creating = new LinkedHashMap<>();
        Map<String, String> deleting = new LinkedHashMap<>();
        int active = 0;
        for (Pod pod : pods) {
            Optional<MatchedWorkloadSpread> injected = MatchedWorkloadSpread.of(pod);
            if (injected.isPresent() && !injected.get().uid().isEmpty()) {
                oldCreating.remove(injected.get().uid());
            } else {
                oldCreating.remove(name(pod));
            }
            if (!Pods.isActive(pod)) {
                continue;
            }
            active++;
            if (status.getMissingReplicas() > 0) {
                status.setMissingReplicas(status.getMissingReplicas() - 1);
            }
            String deleteTime = oldDeleting.get(name(pod));
            if (deleteTime != null) {
                Instant expected = time(deleteTime).plusSeconds(DELETE_SECONDS);
                if (expected.isBefore(acc.now)) {
                    acc.events.add(new Event("Warning", "DeletePodFailed", "Pod " + acc.namespace + "/" + name(pod)
                            + " was expected to be deleted but it wasn't"));
                } else {
                    deleting.put(name(pod), deleteTime);
                    if (status.getMissingReplicas() < max) {
                        status.setMissingReplicas(status.getMissingReplicas() + 1);
                    }
                    acc.requeue(Duration.between(acc.now, expected));
                }
            }
        }
        status.setReplicas(active);
        for (Map.Entry<String, String> e : oldCreating.entrySet()) {
            Instant expected = time(e.getValue()).plusSeconds(CREATE_SECONDS);
            if (expected.isBefore(acc.now)) {
                acc.events.add(new Event("Warning", "CreatePodFailed", "Pod " + acc.namespace + "/" + e.getKey()
                        + " was expected to be created but it wasn't"));
            } else {
                creating.put(e.getKey(), e.getValue());
                if (status.getMissingReplicas() > 0) {
                    status.setMissingReplicas(status.getMissingReplicas() - 1);
                }
                acc.requeue(Duration.between(acc.now, expected));
            }
        }
        status.setCreatingPods(creating.isEmpty() ? null : creating);
        status.setDeletingPods(deleting.isEmpty() ? null : deleting);
        return status;
    }

    /** The Adaptive condition of a subset that is not the last; returns its pods unschedulable for too long. */
    private static List<Pod> reschedule(List<Pod> pods, WorkloadSpreadSubsetStatus status,
                                        WorkloadSpreadSubsetStatus previous, int rescheduleSeconds, Acc acc) {
        List<Pod> failed = new ArrayList<>();
        for (Pod pod : pods) {
            if (unscheduledTimeout(pod, rescheduleSeconds, acc)) {
                failed.add(pod);
            }
        }
        boolean unschedulable = !failed.isEmpty();
        WorkloadSpreadSubsetCondition oldCondition = condition(previous);
        if (oldCondition == null) {
            setCondition(status, newCondition(unschedulable ? "False" : "True", acc.now));
            return failed;
        }
        setCondition(status, oldCondition.copy());
        if (unschedulable) {
            setCondition(status, newCondition("False", acc.now));
        } else if ("False".equals(oldCondition.getStatus())) {
            Instant expected = time(oldCondition.getLastTransitionTime())
                    .plus(WorkloadSpreads.MAX_SCHEDULED_FAILED_DURATION);
            if (expected.isBefore(acc.now)) {
                acc.events.add(new Event("Normal", "RecoverSchedulable", "Subset " + status.getName()
                        + " of WorkloadSpread " + acc.namespace + "/" + acc.name
                        + " is recovered from unschedulable to schedulable"));
                setCondition(status, newCondition("True", acc.now));
            } else {
                acc.requeue(Duration.between(acc.now, expected));
            }
        }
        return failed;
    }

    /**
     * A Pending, unassigned, not deleted pod with PodScheduled=False (reason Unschedulable) created longer than
     * {@code seconds} ago.
     */
    static boolean unscheduledTimeout(Pod pod, int seconds, Acc acc) {
        if (Pods.isTerminating(pod) || !"Pending".equals(Pods.phase(pod)) || Pods.isAssigned(pod)) {
            return false;
        }
        Optional<PodCondition> scheduled = Pods.condition(pod, "PodScheduled");
        if (scheduled.isEmpty() || !"False".equals(scheduled.get().getStatus())
                || !"Unschedulable".equals(scheduled.get().getReason())) {
            return false;
        }
        Instant created = Pods.creationTime(pod);
        Instant expected = (created == null ? Instant.EPOCH : created).plusSeconds(seconds);
        if (expected.isBefore(acc.now)) {
            return true;
        }
        acc.requeue(Duration.between(acc.now, expected));
        return false;
    }

    private static int rescheduleCriticalSeconds(WorkloadSpread ws) {
        WorkloadSpreadScheduleStrategy strategy = ws.spec().scheduleStrategy();
        AdaptiveWorkloadSpreadStrategy adaptive = strategy.getAdaptive();
        if (!strategy.isAdaptive() || adaptive == null || adaptive.getRescheduleCriticalSeconds() == null) {
            return 0;
        }
        return adaptive.getRescheduleCriticalSeconds();
    }

    private static WorkloadSpreadSubsetCondition condition(WorkloadSpreadSubsetStatus status) {
        if (status == null) {
            return null;
        }
        for (WorkloadSpreadSubsetCondition c : status.conditions()) {
            if (WorkloadSpreadSubsetCondition.SCHEDULABLE.equals(c.getType())) {
                return c;
            }
        }
        return null;
    }

    private static WorkloadSpreadSubsetCondition newCondition(String status, Instant now) {
        return new WorkloadSpreadSubsetCondition(WorkloadSpreadSubsetCondition.SCHEDULABLE, status,
                Pods.formatTime(now), "", "");
    }

    /**
     * OpenKruise's setWorkloadSpreadSubsetCondition: no change when status and reason are the same; the old
     * transition time is kept when only the reason changes.
     */
    static void setCondition(WorkloadSpreadSubsetStatus status, WorkloadSpreadSubsetCondition condition) {
        WorkloadSpreadSubsetCondition current = condition(status);
        if (current != null && eq(current.getStatus(), condition.getStatus())
                && eq(current.getReason(), condition.getReason())) {
            return;
        }
        if (current != null && eq(current.getStatus(), condition.getStatus())) {
            condition.setLastTransitionTime(current.getLastTransitionTime());
        }
        List<WorkloadSpreadSubsetCondition> conditions = new ArrayList<>();
        for (WorkloadSpreadSubsetCondition c : status.conditions()) {
            if (!WorkloadSpreadSubsetCondition.SCHEDULABLE.equals(c.getType())) {
                conditions.add(c);
            }
        }
        conditions.add(condition);
        status.setConditions(conditions);
    }

    private static boolean eq(String a, String b) {
        return (a == null ? "" : a).equals(b == null ? "" : b);
    }

    private static boolean isEmpty(List<WorkloadSpreadSubsetStatus> statuses) {
        int sum = 0;
        for (WorkloadSpreadSubsetStatus s : statuses) {
            sum += s.getReplicas() + s.creatingPods().size() + s.deletingPods().size();
        }
        return sum == 0;
    }

    // An unreadable record time counts as long past, so the record expires instead of staying forever.
    private static Instant time(String rfc3339) {
        Instant t = Pods.parseTime(rfc3339);
        return t == null ? Instant.EPOCH : t;
    }

    private static String name(Pod pod) {
        return pod.getMetadata() == null || pod.getMetadata().getName() == null ? "" : pod.getMetadata().getName();
    }

    /** What the calculation collects besides the status: events and the earliest requeue. */
    static final class Acc {
        final Instant now;
        final String namespace;
        final String name;
        final List<Event> events = new ArrayList<>();
        Optional<Duration> requeue = Optional.empty();

        Acc(WorkloadSpread ws, Instant now) {
            this.now = now;
            this.namespace = ws.getMetadata() == null ? "" : String.valueOf(ws.getMetadata().getNamespace());
            this.name = ws.getMetadata() == null ? "" : String.valueOf(ws.getMetadata().getName());
        }

        void requeue(Duration d) {
            if (!d.isNegative() && !d.isZero() && (requeue.isEmpty() || d.compareTo(requeue.get()) < 0)) {
                requeue = Optional.of(d);
            }
        }
    }
}
