package dev.kruisevertx.sim.nodes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.HostIP;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodReadinessGate;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts together the pod status a kubelet writes from its main containers' statuses: the phase (Succeeded or Failed
 * once every main container ended for good), the init containers (done; native sidecars running until the pod
 * finished), and the pod conditions, where Ready also needs every readinessGate condition True.
 */
final class PodStatusAssembler {

    /**
     * What the kubelet found for the pod's main containers: their statuses, the exit codes of those that ended for
     * good, whether all are ready, and whether any has started.
     */
    record MainContainers(List<ContainerStatus> statuses, List<Integer> finalExitCodes, boolean allReady,
            boolean anyStarted) {
    }

    private PodStatusAssembler() {
    }

    static PodStatus assemble(Pod pod, PodStatus current, MainContainers main, List<ContainerStatus> ephemeralStatuses,
            String hostIp, String podIp, Instant now) {
        List<Integer> finalExitCodes = main.finalExitCodes();
        boolean finished = !finalExitCodes.isEmpty() && finalExitCodes.size() == pod.getSpec().getContainers().size();
        String phase = main.anyStarted() ? "Running" : "Pending";
        if (finished) {
            phase = finalExitCodes.stream().allMatch(code -> code == 0) ? "Succeeded" : "Failed";
        }
        List<ContainerStatus> initStatuses = initStatuses(pod, current, finished, now);
        String nowTs = Kubelet.ts(now);
        return new PodStatusBuilder(current)
                .withPhase(phase)
                .withHostIP(hostIp).withHostIPs(new HostIP(hostIp))
                .withPodIP(podIp).withPodIPs(new PodIP(podIp))
                .withStartTime(current.getStartTime() != null ? current.getStartTime() : nowTs)
                .withConditions(conditions(pod, current, main.allReady(), finished, nowTs))
                .withContainerStatuses(main.statuses())
                .withInitContainerStatuses(initStatuses.isEmpty() ? null : initStatuses)
                .withEphemeralContainerStatuses(ephemeralStatuses)
                .build();
    }

    /** Regular init containers show as completed; native sidecars as {@link #nativeSidecar} says. */
    private static List<ContainerStatus> initStatuses(Pod pod, PodStatus current, boolean podFinished, Instant now) {
        List<ContainerStatus> out = new ArrayList<>();
        if (pod.getSpec().getInitContainers() == null) {
            return out;
        }
        for (Container c : pod.getSpec().getInitContainers()) {
            ContainerStatus old = Kubelet.find(current.getInitContainerStatuses(), c.getName());
            if ("Always".equals(c.getRestartPolicy())) {
                out.add(nativeSidecar(c, old, podFinished, now));
                continue;
            }
            String started = old != null && old.getState() != null && old.getState().getTerminated() != null
                    ? old.getState().getTerminated().getStartedAt() : Kubelet.ts(now);
            out.add(new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                    .withImageID(Kubelet.imageId(c.getImage())).withReady(true).withStarted(false).withRestartCount(0)
                    .withContainerID(old != null && old.getContainerID() != null ? old.getContainerID() : Kubelet.newContainerId())
                    .withState(new ContainerStateBuilder().withNewTerminated().withExitCode(0).withReason("Completed")
                            .withStartedAt(started).withFinishedAt(started).endTerminated().build()).build());
        }
        return out;
    }

    /**
     * A native sidecar (an init container with restartPolicy Always): running and ready beside the main containers,
     * terminated (exit code 0) once they have all finished.
     */
    private static ContainerStatus nativeSidecar(Container c, ContainerStatus old, boolean podFinished, Instant now) {
        String id = old != null && old.getContainerID() != null ? old.getContainerID() : Kubelet.newContainerId();
        String started = old != null && old.getState() != null && old.getState().getRunning() != null
                ? old.getState().getRunning().getStartedAt() : Kubelet.ts(now);
        ContainerStatusBuilder b = new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                .withImageID(Kubelet.imageId(c.getImage())).withContainerID(id).withRestartCount(0);
        if (podFinished) {
            if (old != null && old.getState() != null && old.getState().getTerminated() != null) {
                return b.withReady(false).withStarted(false).withState(old.getState()).build();
            }
            return b.withReady(false).withStarted(false).withState(new ContainerStateBuilder().withNewTerminated().withExitCode(0)
                    .withReason("Completed").withContainerID(id).withStartedAt(started).withFinishedAt(Kubelet.ts(now)).endTerminated().build()).build();
        }
        return b.withReady(true).withStarted(true)
                .withState(new ContainerStateBuilder().withNewRunning().withStartedAt(started).endRunning().build()).build();
    }

    /** The pod's conditions: those already set (readiness gates' among them) kept, the kubelet's own brought up to date. */
    private static List<PodCondition> conditions(Pod pod, PodStatus current, boolean allReady, boolean podFinished,
            String nowTs) {
        boolean gatesTrue = true;
        if (pod.getSpec().getReadinessGates() != null) {
            for (PodReadinessGate gate : pod.getSpec().getReadinessGates()) {
                PodCondition c = Kubelet.condition(current.getConditions(), gate.getConditionType());
                if (c == null || !"True".equals(c.getStatus())) {
                    gatesTrue = false;
                }
            }
        }
        List<PodCondition> conditions = new ArrayList<>();
        if (current.getConditions() != null) {
            current.getConditions().forEach(c -> conditions.add(new PodConditionBuilder(c).build()));
        }
        setCondition(conditions, "PodReadyToStartContainers", "True", null, nowTs);
        setCondition(conditions, "Initialized", "True", null, nowTs);
        String notReady = podFinished ? "PodCompleted" : "ContainersNotReady";
        setCondition(conditions, "ContainersReady", allReady ? "True" : "False", allReady ? null : notReady, nowTs);
        setCondition(conditions, "Ready", allReady && gatesTrue ? "True" : "False",
                allReady ? (gatesTrue ? null : "ReadinessGatesNotReady") : notReady, nowTs);
        setCondition(conditions, "PodScheduled", "True", null, nowTs);
        return conditions;
    }

    private static void setCondition(List<PodCondition> conditions, String type, String status, String reason, String now) {
        PodCondition c = Kubelet.condition(conditions, type);
        if (c == null) {
            c = new PodConditionBuilder().withType(type).build();
            conditions.add(c);
        }
        if (!status.equals(c.getStatus())) {
            c.setLastTransitionTime(now);
        }
        c.setStatus(status);
        c.setReason(reason);
        if (reason == null) {
            c.setMessage(null);
        }
    }
}
