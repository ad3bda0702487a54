package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.StatefulSetCondition;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetConditionType;
import dev.kruisevertx.podutil.Pods;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.kruisevertx.api.apps.v1beta1.StatefulSetConditionType.FAILED_CREATE_POD;
import static dev.kruisevertx.api.apps.v1beta1.StatefulSetConditionType.FAILED_UPDATE_POD;

/**
 * {@code status.conditions} of an Advanced StatefulSet as OpenKruise writes them: the status is rebuilt on every
 * reconcile, so a condition is only present while its failure recurs. {@code FailedCreatePod} when a pod (or one of
 * its PVCs) could not be created, {@code FailedUpdatePod} when a pod's invariants (its PVCs' ownerReferences, its
 * missing PVCs) could not be brought in line; both with status True, no reason and the error as message.
 */
final class StatefulSetConditions {
    /** The failures of one reconcile, first one of each type wins (OpenKruise stops at the first). */
    static final class Failures {
        private final Map<StatefulSetConditionType, String> messages = new LinkedHashMap<>();

        synchronized void createFailed(Throwable cause) {
            messages.putIfAbsent(FAILED_CREATE_POD, "StatefulPodControl failed to create Pod error: " + text(cause));
        }

        synchronized void updateFailed(Throwable cause) {
            messages.putIfAbsent(FAILED_UPDATE_POD, "StatefulPodControl failed to update Pod error: " + text(cause));
        }

        synchronized Map<StatefulSetConditionType, String> messages() {
            return new LinkedHashMap<>(messages);
        }

        private static String text(Throwable cause) {
            return cause.getMessage() == null ? cause.toString() : cause.getMessage();
        }
    }

    private StatefulSetConditions() {
    }

    /**
     * The conditions to write: one per failure, or null when nothing failed. A condition that was already True
     * keeps its lastTransitionTime, so a failure retried with backoff does not rewrite the status each time.
     */
    static List<StatefulSetCondition> of(List<StatefulSetCondition> previous,
                                         Map<StatefulSetConditionType, String> failures, Instant now) {
        if (failures.isEmpty()) {
            return null;
        }
        List<StatefulSetCondition> out = new ArrayList<>();
        failures.forEach((type, message) -> {
            StatefulSetCondition c = new StatefulSetCondition();
            c.setType(type.value());
            c.setStatus("True");
            c.setMessage(message);
            c.setLastTransitionTime(Pods.formatTime(now));
            if (previous != null) {
                for (StatefulSetCondition p : previous) {
                    if (type.value().equals(p.getType()) && "True".equals(p.getStatus())
                            && p.getLastTransitionTime() != null) {
                        c.setLastTransitionTime(p.getLastTransitionTime());
                    }
                }
            }
            out.add(c);
        });
        return out;
    }
}
