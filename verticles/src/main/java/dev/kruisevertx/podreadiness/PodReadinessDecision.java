package dev.kruisevertx.podreadiness;

import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

/**
 * Pure decision: a pod that carries the {@code KruisePodReady} readiness gate but has no such condition yet gets
 * {@code KruisePodReady=True}. Whoever needs the pod unready later (container recreation, lifecycle hooks) sets
 * the condition to False themselves; this controller never flips an existing condition.
 */
public final class PodReadinessDecision {
    public static final String KRUISE_POD_READY = "KruisePodReady";

    private PodReadinessDecision() {
    }

    public static PodReadinessPlan decide(Pod pod) {
        if (pod == null) {
            return PodReadinessPlan.none("pod is gone");
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            return PodReadinessPlan.none("pod is terminating");
        }
        if (!hasGate(pod)) {
            return PodReadinessPlan.none("pod has no " + KRUISE_POD_READY + " readiness gate");
        }
        if (condition(pod) != null) {
            return PodReadinessPlan.none(KRUISE_POD_READY + " condition already present");
        }
        return new PodReadinessPlan(PodReadinessPlan.Action.ADD_READY_CONDITION,
                "readiness gate " + KRUISE_POD_READY + " has no condition yet");
    }

    static boolean hasGate(Pod pod) {
        return Pods.hasReadinessGate(pod, KRUISE_POD_READY);
    }

    static PodCondition condition(Pod pod) {
        return Pods.condition(pod, KRUISE_POD_READY).orElse(null);
    }
}
