package dev.kruisevertx.podutil;

import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodReadinessGate;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Edits of pod conditions on a status the caller owns (a fresh copy, never a cached object), with the semantics of
 * OpenKruise's condition helpers.
 */
public final class PodConditions {
    public static final String CONTAINERS_READY_CONDITION = "ContainersReady";
    public static final String READINESS_GATES_NOT_READY_REASON = "ReadinessGatesNotReady";

    private PodConditions() {
    }

    /**
     * Sets a condition: added when absent, replaced only when its status changes (a condition whose status is
     * unchanged keeps its reason, message and transition time, as OpenKruise's {@code SetPodCondition}).
     *
     * @return whether the status was changed
     */
    public static boolean set(PodStatus status, PodCondition condition) {
        List<PodCondition> conditions = status.getConditions();
        if (conditions == null) {
            conditions = new ArrayList<>();
            status.setConditions(conditions);
        }
        for (int i = 0; i < conditions.size(); i++) {
            PodCondition c = conditions.get(i);
            if (condition.getType().equals(c.getType())) {
                if (!condition.getStatus().equals(c.getStatus())) {
                    conditions.set(i, condition);
                    return true;
                }
                return false;
            }
        }
        conditions.add(condition);
        return true;
    }

    /** The condition of that type in a status, or null. */
    public static PodCondition get(PodStatus status, String type) {
        if (status == null || status.getConditions() == null) {
            return null;
        }
        for (PodCondition c : status.getConditions()) {
            if (type.equals(c.getType())) {
                return c;
            }
        }
        return null;
    }

    /**
     * Recomputes the pod's Ready condition from its readiness gates the way the kubelet would, so a gate set False
     * takes the pod out of endpoints without waiting for the kubelet. Only acts when the pod already reports
     * Ready and ContainersReady=True (otherwise the kubelet's verdict stands).
     *
     * @return whether the status was changed
     */
    public static boolean recomputeReady(PodSpec spec, PodStatus status, Instant now) {
        if (get(status, Pods.READY_CONDITION) == null) {
            return false;
        }
        PodCondition containersReady = get(status, CONTAINERS_READY_CONDITION);
        if (containersReady == null || !"True".equals(containersReady.getStatus())) {
            return false;
        }
        List<String> unready = new ArrayList<>();
        if (spec != null && spec.getReadinessGates() != null) {
            for (PodReadinessGate gate : spec.getReadinessGates()) {
                PodCondition c = get(status, gate.getConditionType());
                if (c == null) {
                    unready.add("corresponding condition of pod readiness gate \"" + gate.getConditionType()
                            + "\" does not exist.");
                } else if (!"True".equals(c.getStatus())) {
                    unready.add("the status of pod readiness gate \"" + gate.getConditionType()
                            + "\" is not \"True\", but " + c.getStatus());
                }
            }
        }
        PodCondition ready = new PodCondition();
        ready.setType(Pods.READY_CONDITION);
        if (unready.isEmpty()) {
            ready.setStatus("True");
            ready.setLastTransitionTime(Pods.formatTime(now));
        } else {
            ready.setStatus("False");
            ready.setReason(READINESS_GATES_NOT_READY_REASON);
            ready.setMessage(String.join(", ", unready));
            ready.setLastTransitionTime(Pods.formatTime(now));
        }
        return set(status, ready);
    }

    /** A condition value. */
    public static PodCondition of(String type, String status, String reason, String message, Instant now) {
        PodCondition c = new PodCondition();
        c.setType(type);
        c.setStatus(status);
        c.setReason(reason);
        c.setMessage(message);
        c.setLastTransitionTime(now == null ? null : Pods.formatTime(now));
        return c;
    }
}
