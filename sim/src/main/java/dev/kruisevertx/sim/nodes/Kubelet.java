package dev.kruisevertx.sim.nodes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodReadinessGate;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What a kubelet would report for a pod on its node: containers start after their image's delay (or fail as
 * the image rules say), an in-place image change restarts only that container, and the pod is Ready only when
 * every container is ready and every readinessGate condition is True. Remembers each container's current run
 * so restarts get a new containerID and restartCount + 1.
 */
public final class Kubelet {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** One run of one container image. */
    private record Run(String image, Instant startAt, String containerId, int restartCount) {
    }

    /** The status to write and when to look again (for delayed starts and crash loops). */
    public record Sync(PodStatus status, Optional<Duration> recheckIn) {
    }

    private final Map<String, Run> runs = new ConcurrentHashMap<>();
    private final Function<String, ImageRule> rules;
    private final Duration crashLoopInterval;

    public Kubelet(Function<String, ImageRule> rules, Duration crashLoopInterval) {
        this.rules = rules;
        this.crashLoopInterval = crashLoopInterval;
    }

    public void forget(String podUid) {
        runs.keySet().removeIf(k -> k.startsWith(podUid + "/"));
    }

    public Sync sync(Pod pod, String hostIp, String podIp, Instant now) {
        PodStatus current = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        String uid = pod.getMetadata().getUid();
        List<ContainerStatus> statuses = new ArrayList<>();
        Duration recheck = null;
        boolean allReady = true;
        boolean anyStarted = false;
        for (Container c : pod.getSpec().getContainers()) {
            ContainerStatus old = find(current.getContainerStatuses(), c.getName());
            String key = uid + "/" + c.getName();
            Run run = runs.get(key);
            if (run == null || !run.image().equals(c.getImage())) {
                run = nextRun(c, old, run, now);
                runs.put(key, run);
            }
            ImageRule rule = rules.apply(c.getImage());
            ContainerStatusBuilder b = new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                    .withRestartCount(run.restartCount());
            if (rule.failure() == ContainerFailure.IMAGE_PULL_ERROR) {
                boolean backOff = now.isAfter(run.startAt().plusSeconds(1));
                b.withImageID("").withReady(false).withStarted(false).withState(waiting(backOff ? "ImagePullBackOff" : "ErrImagePull",
                        backOff ? "Back-off pulling image \"" + c.getImage() + "\"" : "failed to pull image \"" + c.getImage() + "\": not found"));
                if (!backOff) {
                    recheck = min(recheck, Duration.ofMillis(1100));
                }
                allReady = false;
            } else if (now.isBefore(run.startAt())) {
                b.withImageID("").withReady(false).withStarted(false).withState(waiting("ContainerCreating", null));
                recheck = min(recheck, Duration.between(now, run.startAt()));
                allReady = false;
            } else if (rule.failure() == ContainerFailure.CRASH_LOOP) {
                long crashes = Duration.between(run.startAt(), now).toMillis() / Math.max(1, crashLoopInterval.toMillis());
                b.withRestartCount(run.restartCount() + (int) crashes).withContainerID(run.containerId())
                        .withImageID(imageId(c.getImage())).withReady(false).withStarted(false)
                        .withState(waiting("CrashLoopBackOff", "back-off restarting failed container " + c.getName() + " in pod " + pod.getMetadata().getName()))
                        .withLastState(new ContainerStateBuilder().withNewTerminated().withExitCode(1).withReason("Error")
                                .withStartedAt(ts(run.startAt())).withFinishedAt(ts(run.startAt())).withContainerID(run.containerId())
                                .endTerminated().build());
                recheck = min(recheck, crashLoopInterval);
                allReady = false;
                anyStarted = true;
            } else {
                b.withContainerID(run.containerId()).withImageID(imageId(c.getImage())).withReady(true).withStarted(true)
                        .withState(new ContainerStateBuilder().withNewRunning().withStartedAt(ts(run.startAt())).endRunning().build());
                if (old != null && old.getLastState() != null && run.restartCount() > 0) {
                    b.withLastState(old.getLastState());
                }
                anyStarted = true;
            }
            statuses.add(b.build());
        }
        List<ContainerStatus> initStatuses = new ArrayList<>();
        if (pod.getSpec().getInitContainers() != null) {
            for (Container c : pod.getSpec().getInitContainers()) {
                ContainerStatus old = find(current.getInitContainerStatuses(), c.getName());
                String started = old != null && old.getState() != null && old.getState().getTerminated() != null
                        ? old.getState().getTerminated().getStartedAt() : ts(now);
                initStatuses.add(new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                        .withImageID(imageId(c.getImage())).withReady(true).withStarted(false).withRestartCount(0)
                        .withContainerID(old != null && old.getContainerID() != null ? old.getContainerID() : newContainerId())
                        .withState(new ContainerStateBuilder().withNewTerminated().withExitCode(0).withReason("Completed")
                                .withStartedAt(started).withFinishedAt(started).endTerminated().build()).build());
            }
        }
        boolean gatesTrue = true;
        if (pod.getSpec().getReadinessGates() != null) {
            for (PodReadinessGate gate : pod.getSpec().getReadinessGates()) {
                PodCondition c = condition(current.getConditions(), gate.getConditionType());
                if (c == null || !"True".equals(c.getStatus())) {
                    gatesTrue = false;
                }
            }
        }
        List<PodCondition> conditions = new ArrayList<>();
        if (current.getConditions() != null) {
            current.getConditions().forEach(c -> conditions.add(new PodConditionBuilder(c).build()));
        }
        String nowTs = ts(now);
        setCondition(conditions, "PodReadyToStartContainers", "True", null, nowTs);
        setCondition(conditions, "Initialized", "True", null, nowTs);
        setCondition(conditions, "ContainersReady", allReady ? "True" : "False", allReady ? null : "ContainersNotReady", nowTs);
        setCondition(conditions, "Ready", allReady && gatesTrue ? "True" : "False",
                allReady ? (gatesTrue ? null : "ReadinessGatesNotReady") : "ContainersNotReady", nowTs);
        setCondition(conditions, "PodScheduled", "True", null, nowTs);
        PodStatusBuilder next = new PodStatusBuilder(current)
                .withPhase(anyStarted ? "Running" : "Pending")
                .withHostIP(hostIp).withHostIPs(new io.fabric8.kubernetes.api.model.HostIP(hostIp))
                .withPodIP(podIp).withPodIPs(new PodIP(podIp))
                .withStartTime(current.getStartTime() != null ? current.getStartTime() : nowTs)
                .withConditions(conditions)
                .withContainerStatuses(statuses)
                .withInitContainerStatuses(initStatuses.isEmpty() ? null : initStatuses);
        return new Sync(next.build(), Optional.ofNullable(recheck));
    }

    private Run nextRun(Container c, ContainerStatus old, Run previous, Instant now) {
        Duration delay = rules.apply(c.getImage()).startDelay();
        if (previous == null && old != null && c.getImage().equals(old.getImage()) && old.getContainerID() != null) {
            // Status written before this kubelet knew the pod (e.g. restarted simulator): adopt that run.
            Instant started = old.getState() != null && old.getState().getRunning() != null
                    ? Instant.parse(old.getState().getRunning().getStartedAt()) : now;
            return new Run(c.getImage(), started, old.getContainerID(), old.getRestartCount() == null ? 0 : old.getRestartCount());
        }
        int restarts = old == null || old.getRestartCount() == null ? 0 : old.getRestartCount();
        if (old != null && !c.getImage().equals(old.getImage())) {
            restarts++;
        }
        return new Run(c.getImage(), now.plus(delay), newContainerId(), restarts);
    }

    private static Duration min(Duration a, Duration b) {
        return a == null || b.compareTo(a) < 0 ? b : a;
    }

    private static ContainerState waiting(String reason, String message) {
        return new ContainerStateBuilder().withNewWaiting().withReason(reason).withMessage(message).endWaiting().build();
    }

    private static ContainerStatus find(List<ContainerStatus> list, String name) {
        if (list == null) {
            return null;
        }
        return list.stream().filter(s -> name.equals(s.getName())).findFirst().orElse(null);
    }

    static PodCondition condition(List<PodCondition> list, String type) {
        if (list == null) {
            return null;
        }
        return list.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    private static void setCondition(List<PodCondition> conditions, String type, String status, String reason, String now) {
        PodCondition c = condition(conditions, type);
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

    static String ts(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    static String newContainerId() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return "containerd://" + HexFormat.of().formatHex(b);
    }

    /** A stable digest reference for an image, as a runtime reports after pulling it. */
    public static String imageId(String image) {
        String repo = image;
        int at = repo.indexOf('@');
        if (at >= 0) {
            repo = repo.substring(0, at);
        }
        int colon = repo.lastIndexOf(':');
        if (colon > repo.lastIndexOf('/')) {
            repo = repo.substring(0, colon);
        }
        if (!repo.contains("/")) {
            repo = "docker.io/library/" + repo;
        } else if (!repo.substring(0, repo.indexOf('/')).contains(".")) {
            repo = "docker.io/" + repo;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(image.getBytes(StandardCharsets.UTF_8));
            return repo + "@sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
