package dev.kruisevertx.sim.controllers;

import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder;

import java.time.Instant;
import java.util.List;

/** kube's deployment condition helpers: a condition with the same status and reason is left as it is. */
final class DeploymentConditions {
    static final String AVAILABLE = "Available";
    static final String PROGRESSING = "Progressing";
    static final String NEW_RS_CREATED = "NewReplicaSetCreated";
    static final String FOUND_NEW_RS = "FoundNewReplicaSet";
    static final String RS_UPDATED = "ReplicaSetUpdated";
    static final String NEW_RS_AVAILABLE = "NewReplicaSetAvailable";
    static final String TIMED_OUT = "ProgressDeadlineExceeded";
    static final String PAUSED = "DeploymentPaused";
    static final String RESUMED = "DeploymentResumed";

    private DeploymentConditions() {
    }

    static DeploymentCondition of(String type, String status, String reason, String message, Instant now) {
        String t = now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        return new DeploymentConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
                .withLastUpdateTime(t).withLastTransitionTime(t).build();
    }

    static DeploymentCondition get(List<DeploymentCondition> conditions, String type) {
        return conditions.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    /** kube's {@code SetDeploymentCondition}. */
    static void set(List<DeploymentCondition> conditions, DeploymentCondition c) {
        DeploymentCondition current = get(conditions, c.getType());
        if (current != null && current.getStatus().equals(c.getStatus()) && java.util.Objects.equals(current.getReason(), c.getReason())) {
            return;
        }
        if (current != null && current.getStatus().equals(c.getStatus())) {
            c.setLastTransitionTime(current.getLastTransitionTime());
        }
        conditions.removeIf(x -> c.getType().equals(x.getType()));
        conditions.add(c);
    }
}
