package dev.kruisevertx.launchpriority;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Container launch priority as OpenKruise v1.9.0 has it: the pod webhook turns the annotation
 * {@code apps.kruise.io/container-launch-priority: Ordered} (priority by position: first container highest) or the
 * containers' env {@code KRUISE_CONTAINER_PRIORITY} into an env {@code KRUISE_CONTAINER_BARRIER} per container, read
 * from ConfigMap {@code <pod>-barrier} key {@code p_<priority>}; a container cannot start until its key exists, and the
 * controller adds the keys from the highest priority down as the containers before become ready.
 */
public final class LaunchPriority {
    public static final String ANNOTATION = "apps.kruise.io/container-launch-priority";
    public static final String ORDERED = "Ordered";
    public static final String COMPLETED_ANNOTATION = "apps.kruise.io/container-launch-priority-completed";
    public static final String PRIORITY_ENV = "KRUISE_CONTAINER_PRIORITY";
    public static final String BARRIER_ENV = "KRUISE_CONTAINER_BARRIER";
    public static final String BARRIER_SUFFIX = "-barrier";
    static final String KEY_PREFIX = "p_";

    private LaunchPriority() {
    }

    /**
     * The priority of each container for the webhook, or empty when the pod needs no barrier: one container, no
     * annotation and no non-zero priority env, or every container the same priority.
     *
     * @throws IllegalArgumentException when a {@code KRUISE_CONTAINER_PRIORITY} value is not an integer
     */
    public static Optional<int[]> priorities(Pod pod) {
        List<Container> containers = pod.getSpec() == null || pod.getSpec().getContainers() == null ? List.of()
                : pod.getSpec().getContainers();
        if (containers.size() <= 1) {
            return Optional.empty();
        }
        Map<String, String> annotations = pod.getMetadata() == null || pod.getMetadata().getAnnotations() == null
                ? Map.of() : pod.getMetadata().getAnnotations();
        int[] priority = new int[containers.size()];
        if (ORDERED.equals(annotations.get(ANNOTATION))) {
            for (int i = 0; i < priority.length; i++) {
                priority[i] = -i;
            }
            return Optional.of(priority);
        }
        boolean anyNonZero = false;
        for (int i = 0; i < containers.size(); i++) {
            Container c = containers.get(i);
            for (EnvVar e : c.getEnv() == null ? List.<EnvVar>of() : c.getEnv()) {
                if (PRIORITY_ENV.equals(e.getName())) {
                    try {
                        priority[i] = Integer.parseInt(e.getValue() == null ? "" : e.getValue().trim());
                    } catch (NumberFormatException bad) {
                        throw new IllegalArgumentException("container " + c.getName() + ": env " + PRIORITY_ENV
                                + " must be an integer, got \"" + shorten(e.getValue()) + "\"");
                    }
                    anyNonZero |= priority[i] != 0;
                }
            }
        }
        if (!anyNonZero) {
            return Optional.empty();
        }
        for (int p : priority) {
            if (p != priority[0]) {
                return Optional.of(priority);
            }
        }
        return Optional.empty();
    }

    private static String shorten(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > 64 ? s.substring(0, 64) + "..." : s;
    }

    /** The barrier env for a container of {@code priority} in pod {@code podName}. */
    public static EnvVar barrierEnv(int priority, String podName) {
        return new EnvVarBuilder().withName(BARRIER_ENV).withNewValueFrom().withNewConfigMapKeyRef()
                .withName(podName + BARRIER_SUFFIX).withKey(key(priority)).endConfigMapKeyRef().endValueFrom().build();
    }

    public static String key(int priority) {
        return KEY_PREFIX + priority;
    }

    public static String barrierName(String podName) {
        return podName + BARRIER_SUFFIX;
    }

    /**
     * A container's priority from its barrier env, or empty without one. A key that does not parse counts as 0, as
     * OpenKruise's strconv.Atoi with the error ignored.
     */
    public static Optional<Integer> priorityOf(Container c) {
        for (EnvVar e : c.getEnv() == null ? List.<EnvVar>of() : c.getEnv()) {
            if (BARRIER_ENV.equals(e.getName()) && e.getValueFrom() != null
                    && e.getValueFrom().getConfigMapKeyRef() != null) {
                String key = e.getValueFrom().getConfigMapKeyRef().getKey();
                try {
                    return Optional.of(key != null && key.length() > KEY_PREFIX.length()
                            ? Integer.parseInt(key.substring(KEY_PREFIX.length())) : 0);
                } catch (NumberFormatException bad) {
                    return Optional.of(0);
                }
            }
        }
        return Optional.empty();
    }

    /** The priorities of the containers not ready yet, ascending (OpenKruise's findNextPriorities). */
    public static List<Integer> nextPriorities(Pod pod) {
        Set<String> ready = new HashSet<>();
        if (pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
            for (ContainerStatus s : pod.getStatus().getContainerStatuses()) {
                if (Boolean.TRUE.equals(s.getReady())) {
                    ready.add(s.getName());
                }
            }
        }
        List<Integer> out = new ArrayList<>();
        for (Container c : pod.getSpec() == null || pod.getSpec().getContainers() == null ? List.<Container>of()
                : pod.getSpec().getContainers()) {
            if (!ready.contains(c.getName())) {
                priorityOf(c).ifPresent(out::add);
            }
        }
        out.sort(null);
        return out;
    }
}
