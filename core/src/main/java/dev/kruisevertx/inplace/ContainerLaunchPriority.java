package dev.kruisevertx.inplace;

import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;

/**
 * Container launch priority, which also orders in-place update batches (v1.1): the {@value
 * WellKnown#CONTAINER_LAUNCH_PRIORITY_ENV} env the pod webhook writes (from the env itself or from the
 * {@value WellKnown#CONTAINER_LAUNCH_PRIORITY_ANNOTATION}: Ordered annotation). Higher goes first.
 */
public final class ContainerLaunchPriority {
    private ContainerLaunchPriority() {
    }

    /**
     * The container's priority, or null when it has none. An unparsable value counts as 0, as OpenKruise's
     * {@code strconv.Atoi} fallback does.
     */
    public static Integer of(Container c) {
        if (c.getEnv() == null) {
            return null;
        }
        for (EnvVar e : c.getEnv()) {
            if (WellKnown.CONTAINER_LAUNCH_PRIORITY_ENV.equals(e.getName())) {
                try {
                    return Integer.parseInt(e.getValue() == null ? "" : e.getValue().trim());
                } catch (NumberFormatException bad) {
                    return 0;
                }
            }
        }
        return null;
    }

    /**
     * The priority with the Ordered annotation taken into account for pods the webhook did not annotate with env:
     * container {@code i} of an Ordered pod gets {@code -i} (earlier containers first).
     */
    public static Integer of(Container c, int index, boolean orderedAnnotation) {
        Integer p = of(c);
        if (p == null && orderedAnnotation) {
            return -index;
        }
        return p;
    }
}
