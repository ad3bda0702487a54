package dev.kruisevertx.podutil;

import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodReadinessGate;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Read-only questions workload controllers ask about pods. Every method only reads its arguments: cached pods are
 * shared between controllers and must never be changed in place.
 */
public final class Pods {
    /** Kubernetes pod condition a pod must have True to receive traffic. */
    public static final String READY_CONDITION = "Ready";
    public static final String PHASE_PENDING = "Pending";
    public static final String PHASE_RUNNING = "Running";
    public static final String PHASE_SUCCEEDED = "Succeeded";
    public static final String PHASE_FAILED = "Failed";

    private Pods() {
    }

    /** The condition of the given type, if the pod reports it. */
    public static Optional<PodCondition> condition(Pod pod, String type) {
        if (pod == null || pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        for (PodCondition c : pod.getStatus().getConditions()) {
            if (c != null && type.equals(c.getType())) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** True when the condition of that type is present with status "True". */
    public static boolean conditionTrue(Pod pod, String type) {
        return condition(pod, type).map(c -> "True".equals(c.getStatus())).orElse(false);
    }

    /** The Kubernetes Ready condition is True. */
    public static boolean isReady(Pod pod) {
        return conditionTrue(pod, READY_CONDITION);
    }

    /** Running and Ready, as OpenKruise's {@code IsRunningAndReady}. */
    public static boolean isRunningAndReady(Pod pod) {
        return PHASE_RUNNING.equals(phase(pod)) && isReady(pod);
    }

    /**
     * Ready for at least {@code minReadySeconds} at {@code now}, as Kubernetes' {@code IsPodAvailable}: with 0 a ready
     * pod is available at once; otherwise the Ready condition must have turned True strictly more than
     * {@code minReadySeconds} ago.
     */
    public static boolean isAvailable(Pod pod, int minReadySeconds, Instant now) {
        return availableIn(pod, minReadySeconds, now).map(Duration::isZero).orElse(false);
    }

    /**
     * How long until a ready pod becomes available: zero when it already is, empty when it is not ready (so no
     * amount of waiting helps). Controllers requeue after this delay to notice minReadySeconds passing.
     */
    public static Optional<Duration> availableIn(Pod pod, int minReadySeconds, Instant now) {
        Optional<PodCondition> ready = condition(pod, READY_CONDITION);
        if (ready.isEmpty() || !"True".equals(ready.get().getStatus())) {
            return Optional.empty();
        }
        if (minReadySeconds <= 0) {
            return Optional.of(Duration.ZERO);
        }
        Instant since = parseTime(ready.get().getLastTransitionTime());
        if (since == null) {
            // Kubernetes treats a zero transition time as "never available" once minReadySeconds is set.
            return Optional.empty();
        }
        Instant availableAt = since.plusSeconds(minReadySeconds);
        if (availableAt.isBefore(now)) {
            return Optional.of(Duration.ZERO);
        }
        // Availability needs "strictly after" the boundary; one extra second makes a requeue land past it.
        return Optional.of(Duration.between(now, availableAt).plusSeconds(1));
    }

    /**
     * How long until the first of these pods turns available by minReadySeconds passing (ready, not yet available);
     * zero when none waits. No watch event announces that moment, so a controller whose decision or status counts
     * available pods requeues after this delay.
     */
    public static Duration nextAvailableIn(Iterable<Pod> pods, int minReadySeconds, Instant now) {
        Duration next = Duration.ZERO;
        if (minReadySeconds <= 0) {
            return next;
        }
        for (Pod p : pods) {
            Duration in = availableIn(p, minReadySeconds, now).orElse(Duration.ZERO);
            if (!in.isZero() && (next.isZero() || in.compareTo(next) < 0)) {
                next = in;
            }
        }
        return next;
    }

    public static String phase(Pod pod) {
        return pod == null || pod.getStatus() == null ? null : pod.getStatus().getPhase();
    }

    /** Deletion has been requested (the pod has a deletionTimestamp). */
    public static boolean isTerminating(Pod pod) {
        return pod != null && pod.getMetadata() != null && pod.getMetadata().getDeletionTimestamp() != null;
    }

    /** Not finished and not being deleted, as Kubernetes' {@code IsPodActive}. */
    public static boolean isActive(Pod pod) {
        String phase = phase(pod);
        return !PHASE_SUCCEEDED.equals(phase) && !PHASE_FAILED.equals(phase) && !isTerminating(pod);
    }

    /** Scheduled to a node. */
    public static boolean isAssigned(Pod pod) {
        return pod != null && pod.getSpec() != null && pod.getSpec().getNodeName() != null
                && !pod.getSpec().getNodeName().isEmpty();
    }

    /** The pod carries the {@value WellKnown#SPECIFIED_DELETE_LABEL} label, whatever its value. */
    public static boolean isSpecifiedDelete(HasMetadata obj) {
        return label(obj, WellKnown.SPECIFIED_DELETE_LABEL) != null;
    }

    /** A label value, null when absent. */
    public static String label(HasMetadata obj, String key) {
        Map<String, String> labels = labels(obj);
        return labels.get(key);
    }

    /** The labels, never null (an empty map when none). */
    public static Map<String, String> labels(HasMetadata obj) {
        if (obj == null || obj.getMetadata() == null || obj.getMetadata().getLabels() == null) {
            return Map.of();
        }
        return obj.getMetadata().getLabels();
    }

    /** The annotations, never null (an empty map when none). */
    public static Map<String, String> annotations(HasMetadata obj) {
        if (obj == null || obj.getMetadata() == null || obj.getMetadata().getAnnotations() == null) {
            return Map.of();
        }
        return obj.getMetadata().getAnnotations();
    }

    /** The owner reference marked {@code controller: true}, if any. */
    public static Optional<OwnerReference> controllerOf(HasMetadata obj) {
        if (obj == null || obj.getMetadata() == null || obj.getMetadata().getOwnerReferences() == null) {
            return Optional.empty();
        }
        for (OwnerReference ref : obj.getMetadata().getOwnerReferences()) {
            // A hostile or broken object may list a null entry: it controls nothing.
            if (ref != null && Boolean.TRUE.equals(ref.getController())) {
                return Optional.of(ref);
            }
        }
        return Optional.empty();
    }

    /** The object's controller is the owner with this uid. */
    public static boolean isControlledBy(HasMetadata obj, String ownerUid) {
        return controllerOf(obj).map(r -> ownerUid != null && ownerUid.equals(r.getUid())).orElse(false);
    }

    /** The pod has a readiness gate for that condition type. */
    public static boolean hasReadinessGate(Pod pod, String conditionType) {
        if (pod == null || pod.getSpec() == null || pod.getSpec().getReadinessGates() == null) {
            return false;
        }
        for (PodReadinessGate g : pod.getSpec().getReadinessGates()) {
            if (conditionType.equals(g.getConditionType())) {
                return true;
            }
        }
        return false;
    }

    /** Status of a regular container by name. */
    public static Optional<ContainerStatus> containerStatus(Pod pod, String name) {
        if (pod == null || pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return Optional.empty();
        }
        List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses();
        for (ContainerStatus s : statuses) {
            if (name.equals(s.getName())) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** Sum of restart counts of the regular containers. */
    public static int restartCount(Pod pod) {
        if (pod == null || pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return 0;
        }
        int sum = 0;
        for (ContainerStatus s : pod.getStatus().getContainerStatuses()) {
            sum += s.getRestartCount() == null ? 0 : s.getRestartCount();
        }
        return sum;
    }

    /** When the Ready condition last turned True; null when not ready or unknown. */
    public static Instant readySince(Pod pod) {
        return condition(pod, READY_CONDITION).filter(c -> "True".equals(c.getStatus()))
                .map(c -> parseTime(c.getLastTransitionTime())).orElse(null);
    }

    /**
     * OpenKruise's "update ready": running, available, and not in the middle of an in-place update (an
     * {@code InPlaceUpdateReady} condition, when present, is True).
     */
    public static boolean isUpdateReady(Pod pod, int minReadySeconds, Instant now) {
        if (!PHASE_RUNNING.equals(phase(pod)) || !isAvailable(pod, minReadySeconds, now)) {
            return false;
        }
        return condition(pod, WellKnown.INPLACE_UPDATE_READY_CONDITION).map(c -> "True".equals(c.getStatus()))
                .orElse(true);
    }

    /**
     * The availability a workload counts for maxUnavailable: update ready, and no lifecycle hook in progress (a pod
     * whose lifecycle state is set and is not Normal is unavailable whatever its conditions say).
     */
    public static boolean isServing(Pod pod, int minReadySeconds, Instant now) {
        String state = lifecycleState(pod);
        if (!state.isEmpty() && !WellKnown.LIFECYCLE_STATE_NORMAL.equals(state)) {
            return false;
        }
        return isUpdateReady(pod, minReadySeconds, now);
    }

    /** The lifecycle state label, empty when absent. */
    public static String lifecycleState(Pod pod) {
        return labels(pod).getOrDefault(WellKnown.LIFECYCLE_STATE_LABEL, "");
    }

    public static boolean isPreparingDelete(Pod pod) {
        return WellKnown.LIFECYCLE_STATE_PREPARING_DELETE.equals(lifecycleState(pod));
    }

    /** The {@code controller-revision-hash} label, null when absent. */
    public static String revisionLabel(Pod pod) {
        return labels(pod).get(WellKnown.CONTROLLER_REVISION_HASH_LABEL);
    }

    /**
     * Whether the pod's revision label names {@code revision}: equal, or equal after both are cut to the part after
     * their last '-' (so pods labelled with the long {@code <workload>-<hash>} form match the bare hash and back).
     */
    public static boolean atRevision(Pod pod, String revision) {
        String label = revisionLabel(pod);
        if (label == null || revision == null) {
            return false;
        }
        return label.equals(revision) || shortHash(label).equals(shortHash(revision));
    }

    /** The hash part of a revision name: what follows its last '-'. */
    public static String shortHash(String revision) {
        int dash = revision.lastIndexOf('-');
        return dash < 0 ? revision : revision.substring(dash + 1);
    }

    /** The highest restart count of the regular containers. */
    public static int maxRestarts(Pod pod) {
        int max = 0;
        if (pod != null && pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
            for (ContainerStatus s : pod.getStatus().getContainerStatuses()) {
                if (s.getRestartCount() != null) {
                    max = Math.max(max, s.getRestartCount());
                }
            }
        }
        return max;
    }

    public static Instant creationTime(HasMetadata obj) {
        return obj == null || obj.getMetadata() == null ? null : parseTime(obj.getMetadata().getCreationTimestamp());
    }

    /** An RFC 3339 timestamp as Kubernetes writes them; null for null, empty or unparsable text. */
    public static Instant parseTime(String rfc3339) {
        if (rfc3339 == null || rfc3339.isEmpty()) {
            return null;
        }
        try {
            return java.time.OffsetDateTime.parse(rfc3339).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** A timestamp in Kubernetes' wire form: UTC, whole seconds, e.g. {@code 2022-03-22T09:06:55Z}. */
    public static String formatTime(Instant t) {
        return t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    }
}
