package dev.kruisevertx.resourcedistribution;

import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionCondition;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionConditionType;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A ResourceDistribution's status after one pass, as OpenKruise v1.9.0 writes it: {@code desired} target namespaces,
 * {@code succeeded} of them hold an up-to-date copy, {@code failed} is the rest; all six conditions always present in
 * OpenKruise's order, {@code True} with the failure's reason and the namespaces concerned, else {@code False} with
 * reason {@code Succeeded}; a condition's {@code lastTransitionTime} moves only when its status changes.
 */
public final class DistributionStatus {
    public static final String SUCCEEDED = "Succeeded";

    private DistributionStatus() {
    }

    /** One namespace that failed: the condition it lands in and the reason (the error's message). */
    public record Failure(String namespace, ResourceDistributionConditionType condition, String reason,
                          boolean target) {
    }

    public static ResourceDistributionStatus compute(ResourceDistributionStatus old, int desired, List<Failure> failures,
                                                     Long generation, Instant now) {
        Map<ResourceDistributionConditionType, ResourceDistributionCondition> byType =
                new EnumMap<>(ResourceDistributionConditionType.class);
        for (ResourceDistributionConditionType type : ResourceDistributionConditionType.values()) {
            ResourceDistributionCondition c = new ResourceDistributionCondition();
            c.setType(type.value());
            byType.put(type, c);
        }
        int failedTargets = 0;
        for (Failure f : failures) {
            ResourceDistributionCondition c = byType.get(f.condition());
            c.setReason(f.reason());
            if (c.getFailedNamespaces() == null) {
                c.setFailedNamespaces(new ArrayList<>());
            }
            c.getFailedNamespaces().add(f.namespace());
            if (f.target()) {
                failedTargets++;
            }
        }
        List<ResourceDistributionCondition> oldConditions = old == null || old.getConditions() == null ? List.of()
                : old.getConditions();
        List<ResourceDistributionCondition> conditions = new ArrayList<>();
        for (ResourceDistributionCondition c : byType.values()) {
            if (c.getFailedNamespaces() == null) {
                c.setStatus("False");
                c.setReason(SUCCEEDED);
            } else {
                c.setStatus("True");
                c.getFailedNamespaces().sort(null);
            }
            ResourceDistributionCondition previous = oldConditions.stream()
                    .filter(o -> c.getType().equals(o.getType())).findFirst().orElse(null);
            c.setLastTransitionTime(previous != null && c.getStatus().equals(previous.getStatus())
                    && previous.getLastTransitionTime() != null ? previous.getLastTransitionTime() : now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
            conditions.add(c);
        }
        ResourceDistributionStatus status = new ResourceDistributionStatus();
        status.setDesired(desired);
        status.setSucceeded(Math.max(0, desired - failedTargets));
        status.setFailed(desired - status.getSucceeded());
        status.setObservedGeneration(generation);
        status.setConditions(conditions);
        return status;
    }
}
