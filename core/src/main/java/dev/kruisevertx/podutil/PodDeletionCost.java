package dev.kruisevertx.podutil;

import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * The Kubernetes {@value WellKnown#POD_DELETION_COST_ANNOTATION} annotation: a 32-bit integer, lower is deleted first.
 */
public final class PodDeletionCost {
    private PodDeletionCost() {
    }

    /**
     * The cost of a pod as scale-down ranks it: 0 when the annotation is absent or not a valid 32-bit integer, as
     * Kubernetes' ReplicaSet controller and OpenKruise ignore a bad value rather than fail.
     */
    public static int of(HasMetadata pod) {
        String value = Pods.annotations(pod).get(WellKnown.POD_DELETION_COST_ANNOTATION);
        if (value == null) {
            return 0;
        }
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    /**
     * Parses an annotation value strictly, as the API server validates it.
     *
     * @throws IllegalArgumentException naming the annotation when the value is not a base-10 32-bit integer
     */
    public static int parse(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("annotation " + WellKnown.POD_DELETION_COST_ANNOTATION
                    + " must be a 32-bit integer, got \"" + value + "\"", e);
        }
    }
}
