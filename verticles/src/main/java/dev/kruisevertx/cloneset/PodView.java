package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * Read-only questions the CloneSet controller asks about a pod, answered the way OpenKruise answers them
 * (readiness and availability as Kubernetes' podutil, revision matching that accepts both the long
 * {@code <cloneset>-<hash>} and the bare hash, lifecycle state from its label). Never changes the pod.
 */
public final class PodView {
    private static final String READY = "Ready";

    private PodView() {
    }

    public static Map<String, String> labels(Pod pod) {
        Map<String, String> labels = pod.getMetadata() == null ? null : pod.getMetadata().getLabels();
        return labels == null ? Map.of() : labels;
    }

    public static Map<String, String> annotations(Pod pod) {
        Map<String, String> a = pod.getMetadata() == null ? null : pod.getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    /** The lifecycle state label, empty when absent. */
    public static String lifecycleState(Pod pod) {
        return labels(pod).getOrDefault(WellKnown.LIFECYCLE_STATE_LABEL, "");
    }

    public static boolean isPreparingDelete(Pod pod) {
        return WellKnown.LIFECYCLE_STATE_PREPARING_DELETE.equals(lifecycleState(pod));
    }

    public static String revisionLabel(Pod pod) {
        return labels(pod).get(WellKnown.CONTROLLER_REVISION_HASH_LABEL);
    }

    /**
     * Whether the pod's revision label names {@code revision}: equal, or equal after both are cut to the part
     * after their last '-' (so pods labelled with the long form still match under CloneSetShortHash and back).
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

    public static String phase(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getPhase() == null ? "" : pod.getStatus().getPhase();
    }

    public static boolean isTerminating(Pod pod) {
        return pod.getMetadata().getDeletionTimestamp() != null;
    }

    /** Counted by a workload: not terminating, not finished. */
    public static boolean isActive(Pod pod) {
        String phase = phase(pod);
        return !isTerminating(pod) && !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }

    public static PodCondition condition(Pod pod, String type) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        for (PodCondition c : pod.getStatus().getConditions()) {
            if (type.equals(c.getType())) {
                return c;
            }
        }
        return null;
    }

    public static boolean isReady(Pod pod) {
        PodCondition c = condition(pod, READY);
        return c != null && "True".equals(c.getStatus());
    }

    /** When the Ready condition last turned True; null when not ready or unknown. */
    public static Instant readySince(Pod pod) {
        PodCondition c = condition(pod, READY);
        if (c == null || !"True".equals(c.getStatus())) {
            return null;
        }
        return parseTime(c.getLastTransitionTime());
    }

    /**
     * Ready for more than {@code minReadySeconds}, Kubernetes' strict rule (podutil.IsPodAvailable). The same rule
     * {@link Pods#availableIn} schedules the next look by, so a requeue always lands after the pod turned available.
     */
    public static boolean isAvailable(Pod pod, int minReadySeconds, Instant now) {
        return Pods.isAvailable(pod, minReadySeconds, now);
    }

    /**
     * OpenKruise's "update ready": running, available, and not in the middle of an in-place update
     * (an {@code InPlaceUpdateReady} condition, when present, is True).
     */
    public static boolean isUpdateReady(Pod pod, int minReadySeconds, Instant now) {
        if (!"Running".equals(phase(pod)) || !isAvailable(pod, minReadySeconds, now)) {
            return false;
        }
        PodCondition inPlace = condition(pod, WellKnown.INPLACE_UPDATE_READY_CONDITION);
        return inPlace == null || "True".equals(inPlace.getStatus());
    }

    /**
     * The availability the CloneSet diff counts: a pod whose lifecycle state is set and is not Normal
     * (being prepared for update, delete or normal) is unavailable whatever its conditions say.
     */
    public static boolean isServing(Pod pod, int minReadySeconds, Instant now) {
        String state = lifecycleState(pod);
        if (!state.isEmpty() && !WellKnown.LIFECYCLE_STATE_NORMAL.equals(state)) {
            return false;
        }
        return isUpdateReady(pod, minReadySeconds, now);
    }

    public static int maxRestarts(Pod pod) {
        int max = 0;
        if (pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
            for (ContainerStatus s : pod.getStatus().getContainerStatuses()) {
                if (s.getRestartCount() != null) {
                    max = Math.max(max, s.getRestartCount());
                }
            }
        }
        return max;
    }

    public static Instant creationTime(Pod pod) {
        return parseTime(pod.getMetadata().getCreationTimestamp());
    }

    static Instant parseTime(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
