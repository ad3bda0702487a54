package dev.kruisevertx.sidecarterminator;

import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OpenKruise v1.9.0's sidecarterminator as a pure function of a pod (and whether its node is a virtual kubelet).
 * A pod is looked at when it is not being deleted, not Pending, restartPolicy Never (main containers all ended) or
 * OnFailure (main containers all exited 0), and has a sidecar not yet ended. Sidecars are containers with
 * {@code KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT=true} (any case) or a non-empty
 * {@code KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE}. On a virtual-kubelet node (label {@code type=virtual-kubelet})
 * only the image ones act: their image is swapped in place. Elsewhere the others are stopped through a CRR; those that
 * also carry {@code KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE=true} are stopped only after the pod's phase has been
 * set from the main containers' exit codes, so their own exit code cannot fail the pod.
 */
public final class SidecarTerminatorDecision {
    public static final String CONDITION = "SidecarTerminated";
    public static final String VIRTUAL_KUBELET_LABEL = "type";
    public static final String VIRTUAL_KUBELET_VALUE = "virtual-kubelet";

    private SidecarTerminatorDecision() {
    }

    /** The CRR OpenKruise names for a pod: one per pod, so an existing one means "wait for it". */
    public static String crrName(Pod pod) {
        return "sidecar-termination-" + pod.getMetadata().getUid();
    }

    public static boolean onVirtualKubelet(Node node) {
        return node != null && node.getMetadata().getLabels() != null
                && VIRTUAL_KUBELET_VALUE.equals(node.getMetadata().getLabels().get(VIRTUAL_KUBELET_LABEL));
    }

    public static SidecarTerminatorPlan decide(Pod pod, boolean virtualKubelet) {
        if (!interesting(pod)) {
            return SidecarTerminatorPlan.none("not a finished job pod with running sidecars");
        }
        Set<String> normal = new LinkedHashSet<>();
        Set<String> ignoreExitCode = new LinkedHashSet<>();
        Set<String> image = new LinkedHashSet<>();
        for (Container c : pod.getSpec().getContainers()) {
            if (virtualKubelet && imageSidecar(c)) {
                image.add(c.getName());
            } else if (!virtualKubelet && ignoreExitCodeSidecar(c)) {
                ignoreExitCode.add(c.getName());
            } else if (!virtualKubelet && normalSidecar(c)) {
                normal.add(c.getName());
            }
        }
        Map<String, String> swap = new LinkedHashMap<>();
        for (Container c : pod.getSpec().getContainers()) {
            if (unfinished(pod, image).contains(c.getName())) {
                String next = env(c, WellKnown.TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE_ENV);
                if (next != null && !next.equals(c.getImage())) {
                    swap.put(c.getName(), next);
                }
            }
        }
        List<String> stop = unfinished(pod, normal);
        if (!stop.isEmpty()) {
            return new SidecarTerminatorPlan(swap, null, stop, "stop sidecars");
        }
        if (ignoreExitCode.isEmpty() || !completed(pod, normal) || !completed(pod, image)) {
            return new SidecarTerminatorPlan(swap, null, List.of(), swap.isEmpty() ? "waiting for sidecars to end"
                    : "swap sidecar images");
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        String mark = "Succeeded".equals(phase) || "Failed".equals(phase) ? null
                : succeeded(pod, mainContainers(pod)) ? "Succeeded" : "Failed";
        return new SidecarTerminatorPlan(swap, mark, unfinished(pod, ignoreExitCode),
                "main containers ended: finish the pod, then stop the sidecars whose exit code is ignored");
    }

    /** Whether the pod event handler enqueues the pod (OpenKruise's isInterestingPod). */
    public static boolean interesting(Pod pod) {
        if (pod == null || pod.getSpec() == null || pod.getSpec().getContainers() == null
                || pod.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        String policy = pod.getSpec().getRestartPolicy();
        if ("Pending".equals(phase) || policy == null || "Always".equals(policy)) {
            return false;
        }
        Set<String> sidecars = new LinkedHashSet<>();
        for (Container c : pod.getSpec().getContainers()) {
            if (normalSidecar(c) || imageSidecar(c)) {
                sidecars.add(c.getName());
            }
        }
        if (sidecars.isEmpty() || completed(pod, sidecars)) {
            return false;
        }
        Set<String> main = mainContainers(pod);
        return switch (policy) {
            case "Never" -> completed(pod, main);
            case "OnFailure" -> succeeded(pod, main);
            default -> false;
        };
    }

    static Set<String> mainContainers(Pod pod) {
        Set<String> main = new LinkedHashSet<>();
        for (Container c : pod.getSpec().getContainers()) {
            if (!normalSidecar(c) && !imageSidecar(c)) {
                main.add(c.getName());
            }
        }
        return main;
    }

    static boolean normalSidecar(Container c) {
        return "true".equalsIgnoreCase(env(c, WellKnown.TERMINATE_SIDECAR_WHEN_JOB_EXIT_ENV));
    }

    static boolean ignoreExitCodeSidecar(Container c) {
        return normalSidecar(c) && "true".equalsIgnoreCase(env(c, WellKnown.TERMINATE_SIDECAR_IGNORE_EXIT_CODE_ENV));
    }

    static boolean imageSidecar(Container c) {
        String image = env(c, WellKnown.TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE_ENV);
        return image != null && !image.isEmpty();
    }

    /** The first value of {@code name} in the container's env (as OpenKruise: any later duplicate is ignored). */
    private static String env(Container c, String name) {
        if (c.getEnv() == null) {
            return null;
        }
        for (EnvVar e : c.getEnv()) {
            if (e != null && name.equals(e.getName())) {
                return e.getValue();
            }
        }
        return null;
    }

    private static List<ContainerStatus> statuses(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null ? List.of()
                : pod.getStatus().getContainerStatuses();
    }

    /** Every named container reports terminated (and every container reports a status at all). */
    static boolean completed(Pod pod, Set<String> names) {
        if (pod.getSpec().getContainers().size() != statuses(pod).size()) {
            return false;
        }
        for (ContainerStatus s : statuses(pod)) {
            if (names.contains(s.getName()) && (s.getState() == null || s.getState().getTerminated() == null)) {
                return false;
            }
        }
        return true;
    }

    /** Every named container exited 0 (and every container reports a status at all). */
    static boolean succeeded(Pod pod, Set<String> names) {
        if (pod.getSpec().getContainers().size() != statuses(pod).size()) {
            return false;
        }
        for (ContainerStatus s : statuses(pod)) {
            if (names.contains(s.getName()) && (s.getState() == null || s.getState().getTerminated() == null
                    || s.getState().getTerminated().getExitCode() == null
                    || s.getState().getTerminated().getExitCode() != 0)) {
                return false;
            }
        }
        return true;
    }

    /** The named containers that do not report terminated, in the pod's container order. */
    static List<String> unfinished(Pod pod, Set<String> names) {
        Set<String> ended = new LinkedHashSet<>();
        for (ContainerStatus s : statuses(pod)) {
            if (names.contains(s.getName()) && s.getState() != null && s.getState().getTerminated() != null) {
                ended.add(s.getName());
            }
        }
        List<String> out = new ArrayList<>();
        for (Container c : pod.getSpec().getContainers()) {
            if (names.contains(c.getName()) && !ended.contains(c.getName())) {
                out.add(c.getName());
            }
        }
        return out;
    }
}
