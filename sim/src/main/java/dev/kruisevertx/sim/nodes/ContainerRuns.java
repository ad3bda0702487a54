package dev.kruisevertx.sim.nodes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The kubelet's bookkeeping of each pod container's current run, and when it starts a new one: on an image change,
 * after a stop, after an exit under restartPolicy OnFailure, and after a failed liveness (or startup) probe. Every
 * new run gets a new containerID and restartCount + 1, and its container goes into the {@link ContainerTable}.
 * Not thread-safe on its own: {@link Kubelet} calls it under its lock.
 */
final class ContainerRuns {

    /** One run of one container image; {@code previous} is how the run it replaced ended, if it did. */
    record Run(String image, Instant startAt, String containerId, int restartCount, Ended previous) {
    }

    /** How a run ended, shown as the container's terminated (then last) state. */
    record Ended(String containerId, Instant startedAt, Instant finishedAt, int exitCode) {
        ContainerState asState() {
            return new ContainerStateBuilder().withNewTerminated().withExitCode(exitCode)
                    .withReason(exitCode == 0 ? "Completed" : "Error").withContainerID(containerId)
                    .withStartedAt(Kubelet.ts(startedAt)).withFinishedAt(Kubelet.ts(finishedAt)).endTerminated().build();
        }
    }

    /** Exit code of a container killed after a failed probe (SIGKILL). */
    private static final int KILLED = 137;

    private final Map<String, Run> runs = new ConcurrentHashMap<>();
    /** Pod uid to its restartPolicy, as last synced. */
    private final Map<String, String> policies = new ConcurrentHashMap<>();
    /** Containers stopped in a pod whose restartPolicy does not start them again (Never, OnFailure after exit 0). */
    private final Map<String, Ended> stoppedForGood = new ConcurrentHashMap<>();
    /** Pod uid to the pod as last synced: a container started again after a stop takes its env from it. */
    private final Map<String, Pod> pods = new ConcurrentHashMap<>();
    private final ContainerTable table;
    private final Function<String, ImageRule> rules;
    private final Duration restartDelay;

    ContainerRuns(ContainerTable table, Function<String, ImageRule> rules, Duration restartDelay) {
        this.table = table;
        this.rules = rules;
        this.restartDelay = restartDelay;
    }

    /** Whether the container has had a run (was created): env sources are only read before that. */
    boolean started(Pod pod, Container c) {
        return runs.containsKey(key(pod, c));
    }

    void forget(String podUid) {
        runs.keySet().removeIf(k -> k.startsWith(podUid + "/"));
        stoppedForGood.keySet().removeIf(k -> k.startsWith(podUid + "/"));
        policies.remove(podUid);
        pods.remove(podUid);
    }

    /** How {@code c} ended when it was stopped for good (a stop under restartPolicy Never or OnFailure), if it was. */
    Optional<Ended> stoppedForGood(Pod pod, Container c) {
        return Optional.ofNullable(stoppedForGood.get(key(pod, c)));
    }

    /**
     * The current run of {@code c}: the one remembered, or a new one when there is none or the image changed (the
     * replaced container exits now). {@code old} is the container's last written status.
     */
    Run current(Pod pod, Container c, ContainerStatus old, Instant now) {
        String key = key(pod, c);
        if (pod.getSpec().getRestartPolicy() != null) {
            policies.put(pod.getMetadata().getUid(), pod.getSpec().getRestartPolicy());
        }
        pods.put(pod.getMetadata().getUid(), pod);
        Run run = runs.get(key);
        if (run != null && run.image().equals(c.getImage())) {
            return run;
        }
        Run next = nextRun(c, old, run, now);
        runs.put(key, next);
        if (run != null) {
            table.markExited(Kubelet.runtimeId(run.containerId()), now, 0);
        }
        create(next, pod, c, now);
        return next;
    }

    /**
     * After a stop of container {@code stopped}: when it is the current run of its pod container, the kubelet starts
     * a new one after the restart delay (and the image's start delay) — unless the pod's restartPolicy is Never or
     * OnFailure (a stop exits 0): then the container stays exited, as kubelet leaves it.
     */
    void restartAfterStop(SimContainer stopped, Instant now) {
        String key = stopped.podUid() + "/" + stopped.containerName();
        Run run = runs.get(key);
        if (run == null || !Kubelet.runtimeId(run.containerId()).equals(stopped.id())) {
            return;
        }
        Instant startedAt = stopped.startedAt() == null ? now : stopped.startedAt();
        String policy = policies.get(stopped.podUid());
        if ("Never".equals(policy) || "OnFailure".equals(policy)) {
            stoppedForGood.put(key, new Ended(run.containerId(), startedAt, now, 0));
            return;
        }
        Duration delay = restartDelay.plus(rules.apply(run.image()).startDelay());
        Run next = new Run(run.image(), now.plus(delay), Kubelet.newContainerId(), run.restartCount() + 1,
                new Ended(run.containerId(), startedAt, now, 0));
        runs.put(key, next);
        table.createLike(stopped.id(), Kubelet.runtimeId(next.containerId()), next.restartCount(), now, next.startAt(),
                envNow(stopped));
    }

    /** The env a container started again now gets: resolved from its pod as last synced (null: as before). */
    private Map<String, String> envNow(SimContainer stopped) {
        Pod pod = pods.get(stopped.podUid());
        if (pod == null || pod.getSpec() == null || pod.getSpec().getContainers() == null) {
            return null;
        }
        for (Container c : pod.getSpec().getContainers()) {
            if (c.getName().equals(stopped.containerName())) {
                return SimEnv.resolve(pod, c);
            }
        }
        return null;
    }

    /**
     * A container that exits on its own under restartPolicy OnFailure with a non-zero code is started again
     * {@code restartDelay} after each exit (restart count + 1); runs that ended before {@code now} are played through.
     */
    Run restartAfterExits(Pod pod, Container c, Run run, ContainerExit exit, Instant now) {
        if (!ContainerExits.restarts(pod, exit.code())) {
            return run;
        }
        Duration gap = restartDelay.compareTo(Duration.ofMillis(10)) < 0 ? Duration.ofMillis(10) : restartDelay;
        for (int i = 0; i < 1000; i++) {
            Instant exitAt = run.startAt().plus(exit.after());
            if (now.isBefore(exitAt)) {
                break;
            }
            String endedId = Kubelet.runtimeId(run.containerId());
            table.markExited(endedId, exitAt, exit.code());
            Run next = new Run(run.image(), exitAt.plus(gap), Kubelet.newContainerId(), run.restartCount() + 1,
                    new Ended(run.containerId(), run.startAt(), exitAt, exit.code()));
            runs.put(key(pod, c), next);
            if (!table.createLike(endedId, Kubelet.runtimeId(next.containerId()), next.restartCount(), now, next.startAt(),
                    SimEnv.resolve(pod, c))) {
                create(next, pod, c, now);
            }
            run = next;
        }
        return run;
    }

    /**
     * A running container whose liveness (or startup) probe failed is killed when it failed (exit code 137) and
     * started again after the restart delay, as often as that happened by {@code now}.
     */
    Run restartOnProbeFailure(Pod pod, Container c, Run run, Prober prober, Instant now) {
        if (c.getLivenessProbe() == null && c.getStartupProbe() == null) {
            return run;
        }
        ContainerFailure failure = rules.apply(c.getImage()).failure();
        if (failure == ContainerFailure.IMAGE_PULL_ERROR || failure == ContainerFailure.CRASH_LOOP) {
            return run;
        }
        for (int i = 0; i < 100 && !now.isBefore(run.startAt()); i++) {
            Optional<Instant> killed = prober.verdict(c, run.startAt(), now).killedAt();
            if (killed.isEmpty()) {
                break;
            }
            Instant at = killed.get();
            table.markExited(Kubelet.runtimeId(run.containerId()), at, KILLED);
            Run next = new Run(run.image(), at.plus(restartDelay).plus(rules.apply(c.getImage()).startDelay()),
                    Kubelet.newContainerId(), run.restartCount() + 1, new Ended(run.containerId(), run.startAt(), at, KILLED));
            runs.put(key(pod, c), next);
            create(next, pod, c, at);
            run = next;
        }
        return run;
    }

    private Run nextRun(Container c, ContainerStatus old, Run previous, Instant now) {
        Duration delay = rules.apply(c.getImage()).startDelay();
        if (previous == null && old != null && c.getImage().equals(old.getImage()) && old.getContainerID() != null) {
            // Status written before this kubelet knew the pod (e.g. restarted simulator): adopt that run.
            Instant started = old.getState() != null && old.getState().getRunning() != null
                    ? Instant.parse(old.getState().getRunning().getStartedAt()) : now;
            return new Run(c.getImage(), started, old.getContainerID(), old.getRestartCount() == null ? 0 : old.getRestartCount(),
                    null);
        }
        int restarts = old == null || old.getRestartCount() == null ? 0 : old.getRestartCount();
        if (old != null && !c.getImage().equals(old.getImage())) {
            restarts++;
        }
        return new Run(c.getImage(), now.plus(delay), Kubelet.newContainerId(), restarts, null);
    }

    private void create(Run run, Pod pod, Container c, Instant now) {
        table.create(Kubelet.runtimeId(run.containerId()), pod.getSpec().getNodeName(), pod, c, run.restartCount(), now,
                run.startAt());
    }

    private static String key(Pod pod, Container c) {
        return pod.getMetadata().getUid() + "/" + c.getName();
    }
}
