package dev.kruisevertx.launchpriority;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Map;

/**
 * The containerlaunchpriority controller's pure decision for one pod and its barrier ConfigMap, as OpenKruise v1.9.0
 * decides it: create the barrier when missing; release the key of the highest priority still not ready; mark the pod
 * completed once the lowest pending priority is released (or nothing is pending).
 */
public final class BarrierDecision {
    private BarrierDecision() {
    }

    public enum Action { NONE, CREATE_BARRIER, RELEASE, RELEASE_AND_COMPLETE, COMPLETE }

    /** @param key the barrier key to add, for RELEASE* */
    public record Plan(Action action, String key, String reason) {
    }

    /** Whether the controller has anything to do for this pod at all (the event filter). */
    public static boolean concerns(Pod pod) {
        if (pod == null || pod.getMetadata() == null || pod.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        Map<String, String> a = pod.getMetadata().getAnnotations();
        if (a != null && "true".equals(a.get(LaunchPriority.COMPLETED_ANNOTATION))) {
            return false;
        }
        if (pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions()
                .stream().anyMatch(c -> "ContainersReady".equals(c.getType()) && "True".equals(c.getStatus()))) {
            return false;
        }
        return !LaunchPriority.nextPriorities(pod).isEmpty();
    }

    /** @param barrier the pod's barrier ConfigMap, or null when it does not exist */
    public static Plan decide(Pod pod, ConfigMap barrier) {
        if (pod == null) {
            return new Plan(Action.NONE, null, "pod is gone");
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            return new Plan(Action.NONE, null, "pod is terminating");
        }
        Map<String, String> a = pod.getMetadata().getAnnotations();
        if (a != null && "true".equals(a.get(LaunchPriority.COMPLETED_ANNOTATION))) {
            return new Plan(Action.NONE, null, "launch priority already completed");
        }
        List<Integer> next = LaunchPriority.nextPriorities(pod);
        if (next.isEmpty()) {
            return new Plan(Action.COMPLETE, null, "no container waits for its turn");
        }
        if (barrier == null) {
            return new Plan(Action.CREATE_BARRIER, null, "barrier ConfigMap " + LaunchPriority.barrierName(
                    pod.getMetadata().getName()) + " does not exist yet");
        }
        Map<String, String> data = barrier.getData() == null ? Map.of() : barrier.getData();
        int lowest = next.get(0);
        int highest = next.get(next.size() - 1);
        if (data.containsKey(LaunchPriority.key(lowest))) {
            return new Plan(Action.COMPLETE, null, "every pending priority is released");
        }
        if (!data.containsKey(LaunchPriority.key(highest))) {
            String key = LaunchPriority.key(highest);
            return highest == lowest
                    ? new Plan(Action.RELEASE_AND_COMPLETE, key, "releasing the last priority " + highest)
                    : new Plan(Action.RELEASE, key, "releasing priority " + highest + " (highest not ready)");
        }
        return new Plan(Action.NONE, null, "waiting for the containers of priority " + highest + " to become ready");
    }
}
