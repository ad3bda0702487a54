package dev.kruisevertx.podutil;

import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

import java.util.Map;

/**
 * The {@value WellKnown#SPECIFIED_DELETE_LABEL} label: a user or a workload (recreate update) asks the owning
 * workload to delete the pod; the workload deletes it, replacing it within its surge/unavailable limits.
 */
public final class SpecifiedDelete {
    private SpecifiedDelete() {
    }

    /** The label is present (any value). */
    public static boolean isSpecifiedDelete(Pod pod) {
        return Pods.isSpecifiedDelete(pod);
    }

    /** A copy of the pod with the label set to {@code value}; the pod itself when it already has it. */
    public static Pod mark(Pod pod, String value) {
        if (value.equals(Pods.label(pod, WellKnown.SPECIFIED_DELETE_LABEL))) {
            return pod;
        }
        return new PodBuilder(pod).editOrNewMetadata().addToLabels(WellKnown.SPECIFIED_DELETE_LABEL, value)
                .endMetadata().build();
    }

    /** JSON merge patch body that sets the label, what OpenKruise sends ({@code value} is usually "true"). */
    public static String patch(String value) {
        return ApiJson.toJson(Map.of("metadata", Map.of("labels", Map.of(WellKnown.SPECIFIED_DELETE_LABEL, value))));
    }
}
