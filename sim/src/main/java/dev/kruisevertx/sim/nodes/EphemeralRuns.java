package dev.kruisevertx.sim.nodes;

import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The kubelet's side of ephemeral containers (added through {@code pods/ephemeralcontainers}): each starts once
 * after its image's start delay and is never restarted; it is reported in {@code ephemeralContainerStatuses}
 * (running, waiting on an image that cannot be pulled, terminated with exit code 1 for a crashing image, or
 * terminated with its exit's code once an exit rule or its {@code sim.kruise-vertx.dev/exit.<name>} annotation
 * says it ends).
 */
final class EphemeralRuns {
    private record Run(Instant startAt, String containerId) {
    }

    private final Map<String, Run> runs = new ConcurrentHashMap<>();
    private final Function<String, ImageRule> rules;
    private final ContainerExits exits;

    EphemeralRuns(Function<String, ImageRule> rules, ContainerExits exits) {
        this.rules = rules;
        this.exits = exits;
    }

    void forget(String podUid) {
        runs.keySet().removeIf(k -> k.startsWith(podUid + "/"));
    }

    /** The statuses to report now, and when to look again (a container still starting). */
    List<ContainerStatus> statuses(Pod pod, Instant now, Duration[] recheck) {
        List<EphemeralContainer> specs = pod.getSpec().getEphemeralContainers();
        if (specs == null || specs.isEmpty()) {
            return null;
        }
        List<ContainerStatus> out = new ArrayList<>();
        for (EphemeralContainer c : specs) {
            ImageRule rule = rules.apply(c.getImage());
            Run run = runs.computeIfAbsent(pod.getMetadata().getUid() + "/" + c.getName(),
                    k -> new Run(now.plus(rule.startDelay()), Kubelet.newContainerId()));
            java.util.Optional<ContainerExit> exit = exits.ofEphemeral(pod, c);
            ContainerStatusBuilder b = new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                    .withRestartCount(0).withReady(false);
            if (rule.failure() == ContainerFailure.IMAGE_PULL_ERROR) {
                b.withImageID("").withStarted(false).withState(new ContainerStateBuilder().withNewWaiting()
                        .withReason("ErrImagePull").withMessage("failed to pull image \"" + c.getImage() + "\": not found").endWaiting().build());
            } else if (now.isBefore(run.startAt())) {
                b.withImageID("").withStarted(false).withState(new ContainerStateBuilder().withNewWaiting()
                        .withReason("ContainerCreating").endWaiting().build());
                Duration d = Duration.between(now, run.startAt());
                recheck[0] = recheck[0] == null || d.compareTo(recheck[0]) < 0 ? d : recheck[0];
            } else if (rule.failure() == ContainerFailure.CRASH_LOOP) {
                b.withContainerID(run.containerId()).withImageID(Kubelet.imageId(c.getImage())).withStarted(false)
                        .withState(new ContainerStateBuilder().withNewTerminated().withExitCode(1).withReason("Error")
                                .withContainerID(run.containerId()).withStartedAt(Kubelet.ts(run.startAt()))
                                .withFinishedAt(Kubelet.ts(run.startAt())).endTerminated().build());
            } else if (exit.isPresent() && !now.isBefore(run.startAt().plus(exit.get().after()))) {
                Instant at = run.startAt().plus(exit.get().after());
                b.withContainerID(run.containerId()).withImageID(Kubelet.imageId(c.getImage())).withStarted(false)
                        .withState(new ContainerStateBuilder().withNewTerminated().withExitCode(exit.get().code())
                                .withReason(exit.get().code() == 0 ? "Completed" : "Error")
                                .withContainerID(run.containerId()).withStartedAt(Kubelet.ts(run.startAt()))
                                .withFinishedAt(Kubelet.ts(at)).endTerminated().build());
            } else {
                exit.ifPresent(e -> {
                    Duration d = Duration.between(now, run.startAt().plus(e.after()));
                    recheck[0] = recheck[0] == null || d.compareTo(recheck[0]) < 0 ? d : recheck[0];
                });
                b.withContainerID(run.containerId()).withImageID(Kubelet.imageId(c.getImage())).withStarted(true)
                        .withState(new ContainerStateBuilder().withNewRunning().withStartedAt(Kubelet.ts(run.startAt())).endRunning().build());
            }
            out.add(b.build());
        }
        return out;
    }
}
