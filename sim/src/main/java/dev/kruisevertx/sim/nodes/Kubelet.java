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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * What a kubelet would report for a pod on its node: containers start after their image's delay (or fail as
 * the image rules say), an in-place image change restarts only that container, and the pod is Ready only when
 * every container is ready and every readinessGate condition is True. Remembers each container's current run
 * so restarts get a new containerID and restartCount + 1.
 *
 * <p>It is also the simulated node's container runtime: every run is a container with a runtime id, and
 * {@link #stop} and {@link #exec} act on them as a CRI runtime would (a stopped container exits and the kubelet
 * starts a new one after {@code restartDelay}). Methods are synchronized: the kubelet's thread and the CRI
 * server's event loop share the table, and every method is a short in-memory step.
 */
public final class Kubelet {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** One run of one container image; {@code previous} is the run it replaced after a stop, if any. */
    private record Run(String image, Instant startAt, String containerId, int restartCount, Ended previous) {
    }

    /** How a stopped run ended, shown as the container's terminated (then last) state. */
    private record Ended(String containerId, Instant startedAt, Instant finishedAt, int exitCode) {
    }

    /** A container of the runtime's table; {@code finishedAt} is set once it exited. */
    private static final class Entry {
        final String id;
        final String node;
        final String podUid;
        final String podNamespace;
        final String podName;
        final String containerName;
        final String image;
        final int attempt;
        final Instant createdAt;
        final Instant startAt;
        Instant finishedAt;
        int exitCode;

        Entry(String id, String node, Pod pod, Container c, int attempt, Instant createdAt, Instant startAt) {
            this.id = id;
            this.node = node;
            this.podUid = pod.getMetadata().getUid();
            this.podNamespace = pod.getMetadata().getNamespace();
            this.podName = pod.getMetadata().getName();
            this.containerName = c.getName();
            this.image = c.getImage();
            this.attempt = attempt;
            this.createdAt = createdAt;
            this.startAt = startAt;
        }

        Entry(String id, String node, Entry like, int attempt, Instant createdAt, Instant startAt) {
            this.id = id;
            this.node = node;
            this.podUid = like.podUid;
            this.podNamespace = like.podNamespace;
            this.podName = like.podName;
            this.containerName = like.containerName;
            this.image = like.image;
            this.attempt = attempt;
            this.createdAt = createdAt;
            this.startAt = startAt;
        }
    }

    /** The status to write and when to look again (for delayed starts and crash loops). */
    public record Sync(PodStatus status, Optional<Duration> recheckIn) {
    }

    private final Map<String, Run> runs = new ConcurrentHashMap<>();
    private final Map<String, Entry> containers = new LinkedHashMap<>();
    private final List<ExecRecord> execs = new CopyOnWriteArrayList<>();
    private final Map<String, java.util.Set<String>> pulled = new java.util.HashMap<>();
    private final Function<String, ImageRule> rules;
    private final Duration crashLoopInterval;
    private final Duration restartDelay;
    private final ContainerExits exits;
    private Prober prober = new Prober(List::of, 1.0);
    private final EphemeralRuns ephemeral;

    public Kubelet(Function<String, ImageRule> rules, Duration crashLoopInterval) {
        this(rules, crashLoopInterval, Duration.ofSeconds(1));
    }

    /** {@code restartDelay}: how long after a stop the kubelet starts the container again. */
    public Kubelet(Function<String, ImageRule> rules, Duration crashLoopInterval, Duration restartDelay) {
        this(rules, crashLoopInterval, restartDelay, List.of());
    }

    /** {@code exitRules}: containers that end on their own (see {@link ContainerExits}); read on every sync. */
    public Kubelet(Function<String, ImageRule> rules, Duration crashLoopInterval, Duration restartDelay, List<ExitRule> exitRules) {
        this.rules = rules;
        this.crashLoopInterval = crashLoopInterval;
        this.restartDelay = restartDelay;
        this.exits = new ContainerExits(exitRules);
        this.ephemeral = new EphemeralRuns(rules);
    }

    /** The probes' answers; without one, every probe succeeds at once. */
    public synchronized void setProber(Prober prober) {
        this.prober = prober;
    }

    public synchronized void forget(String podUid) {
        runs.keySet().removeIf(k -> k.startsWith(podUid + "/"));
        ephemeral.forget(podUid);
        containers.values().removeIf(e -> e.podUid.equals(podUid));
    }

    // ------------------------------------------------------------------ the runtime's view

    /** The containers of {@code node} as of {@code now}, oldest first. */
    public synchronized List<SimContainer> containers(String node, Instant now) {
        List<SimContainer> out = new ArrayList<>();
        for (Entry e : containers.values()) {
            if (e.node.equals(node)) {
                out.add(view(e, now));
            }
        }
        return out;
    }

    /** One container of {@code node}, by runtime id. */
    public synchronized Optional<SimContainer> container(String node, String id, Instant now) {
        Entry e = containers.get(id);
        return e == null || !e.node.equals(node) ? Optional.empty() : Optional.of(view(e, now));
    }

    /**
     * Stops a container, as CRI StopContainer: a running (or created) container exits at once, and the kubelet
     * starts a new one (new id, restart count + 1) after the restart delay; the pod must then be synced again.
     * Stopping an exited container changes nothing. Empty when {@code node} has no such container.
     *
     * @throws IllegalStateException when an image rule says the runtime fails to stop this container
     */
    public synchronized Optional<SimContainer> stop(String node, String id, Instant now) {
        Entry e = containers.get(id);
        if (e == null || !e.node.equals(node)) {
            return Optional.empty();
        }
        SimContainer before = view(e, now);
        if (before.state() == SimContainer.State.EXITED) {
            return Optional.of(before);
        }
        if (rules.apply(e.image).failure() == ContainerFailure.STOP_ERROR) {
            throw new IllegalStateException("failed to stop container \"" + id + "\": unknown error after kill: "
                    + "runc did not terminate successfully: exit status 1");
        }
        e.finishedAt = now;
        e.exitCode = 0;
        String key = e.podUid + "/" + e.containerName;
        Run run = runs.get(key);
        if (run != null && runtimeId(run.containerId()).equals(id)) {
            Instant startedAt = before.startedAt() == null ? now : before.startedAt();
            Duration delay = restartDelay.plus(rules.apply(run.image()).startDelay());
            Run next = new Run(run.image(), now.plus(delay), newContainerId(), run.restartCount() + 1,
                    new Ended(run.containerId(), startedAt, now, 0));
            runs.put(key, next);
            register(next, e.node, e, now);
        }
        return Optional.of(view(e, now));
    }

    /**
     * Runs a command in a container, as CRI ExecSync: recorded, and it succeeds. Empty when {@code node} has no
     * such container; a container that is not running is returned unrecorded, for the caller to refuse.
     */
    public synchronized Optional<SimContainer> exec(String node, String id, List<String> command, Instant now) {
        Entry e = containers.get(id);
        if (e == null || !e.node.equals(node)) {
            return Optional.empty();
        }
        SimContainer c = view(e, now);
        if (c.state() == SimContainer.State.RUNNING) {
            execs.add(new ExecRecord(node, e.podNamespace, e.podName, e.containerName, id, List.copyOf(command), now));
        }
        return Optional.of(c);
    }

    /**
     * Pulls an image onto a node, as CRI PullImage: fails (empty) for images an image rule says cannot be pulled;
     * otherwise returns the image reference.
     */
    public synchronized Optional<String> pull(String node, String image) {
        if (rules.apply(image).failure() == ContainerFailure.IMAGE_PULL_ERROR) {
            return Optional.empty();
        }
        pulled.computeIfAbsent(node, n -> new java.util.TreeSet<>()).add(image);
        return Optional.of(imageId(image));
    }

    /** The images on a node: pulled ones and those of its containers, sorted. */
    public synchronized List<String> images(String node) {
        java.util.TreeSet<String> out = new java.util.TreeSet<>(pulled.getOrDefault(node, java.util.Set.of()));
        for (Entry e : containers.values()) {
            if (e.node.equals(node)) {
                out.add(e.image);
            }
        }
        return List.copyOf(out);
    }

    /** Removes a pulled image from a node; images of its containers stay. */
    public synchronized void removeImage(String node, String image) {
        java.util.Set<String> set = pulled.get(node);
        if (set != null) {
            set.remove(image);
        }
    }

    /** Every command run through {@link #exec}, in order. */
    public List<ExecRecord> execs() {
        return List.copyOf(execs);
    }

    private SimContainer view(Entry e, Instant now) {
        ImageRule rule = rules.apply(e.image);
        SimContainer.State state;
        Instant started = null;
        Instant finished = e.finishedAt;
        int exitCode = e.exitCode;
        if (finished != null) {
            state = SimContainer.State.EXITED;
            started = e.startAt.isAfter(finished) ? null : e.startAt;
        } else if (now.isBefore(e.startAt)) {
            state = SimContainer.State.CREATED;
        } else if (rule.failure() == ContainerFailure.CRASH_LOOP) {
            state = SimContainer.State.EXITED;
            started = e.startAt;
            finished = e.startAt;
            exitCode = 1;
        } else {
            state = SimContainer.State.RUNNING;
            started = e.startAt;
        }
        return new SimContainer(e.id, e.node, e.podUid, e.podNamespace, e.podName, e.containerName, e.image, e.attempt,
                e.createdAt, started, finished, exitCode, state);
    }

    private void register(Run run, String node, Pod pod, Container c, Instant now) {
        if (rules.apply(c.getImage()).failure() == ContainerFailure.IMAGE_PULL_ERROR) {
            // The image never arrives, so the runtime never creates the container.
            return;
        }
        String id = runtimeId(run.containerId());
        containers.put(id, new Entry(id, node, pod, c, run.restartCount(), now, run.startAt()));
    }

    private void register(Run run, String node, Entry like, Instant now) {
        String id = runtimeId(run.containerId());
        Entry e = new Entry(id, node, like, run.restartCount(), now, run.startAt());
        containers.put(id, e);
    }

    public synchronized Sync sync(Pod pod, String hostIp, String podIp, Instant now) {
        PodStatus current = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        if ("Succeeded".equals(current.getPhase()) || "Failed".equals(current.getPhase())) {
            // A finished pod stays finished: kubelet never moves a pod out of a terminal phase.
            return new Sync(current, Optional.empty());
        }
        String uid = pod.getMetadata().getUid();
        List<Integer> finalExitCodes = new ArrayList<>();
        List<ContainerStatus> statuses = new ArrayList<>();
        Duration recheck = null;
        boolean allReady = true;
        boolean anyStarted = false;
        for (Container c : pod.getSpec().getContainers()) {
            ContainerStatus old = find(current.getContainerStatuses(), c.getName());
            String key = uid + "/" + c.getName();
            Run run = runs.get(key);
            if (run == null || !run.image().equals(c.getImage())) {
                Run previous = run;
                run = nextRun(c, old, run, now);
                runs.put(key, run);
                if (previous != null) {
                    Entry replaced = containers.get(runtimeId(previous.containerId()));
                    if (replaced != null && replaced.finishedAt == null) {
                        replaced.finishedAt = now;
                    }
                }
                register(run, pod.getSpec().getNodeName(), pod, c, now);
            }
            Optional<ContainerExit> exit = rules.apply(c.getImage()).failure() == ContainerFailure.NONE
                    ? exits.of(pod, c) : Optional.empty();
            if (exit.isPresent()) {
                run = restartAfterExits(key, run, exit.get(), pod, c, now);
                Instant exitAt = run.startAt().plus(exit.get().after());
                if (!now.isBefore(exitAt)) {
                    statuses.add(exited(c, run, exit.get().code(), exitAt));
                    finalExitCodes.add(exit.get().code());
                    allReady = false;
                    anyStarted = true;
                    continue;
                }
                recheck = min(recheck, Duration.between(now, exitAt));
            }
            run = restartOnProbeFailure(pod, c, key, run, now);
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
            } else if (now.isBefore(run.startAt()) && run.previous() != null) {
                // Stopped and not started again yet: the old container shows as terminated until the new one runs.
                Ended ended = run.previous();
                b.withRestartCount(Math.max(0, run.restartCount() - 1)).withContainerID(ended.containerId())
                        .withImageID(imageId(c.getImage())).withReady(false).withStarted(false)
                        .withState(terminated(ended));
                if (old != null && old.getLastState() != null) {
                    b.withLastState(old.getLastState());
                }
                recheck = min(recheck, Duration.between(now, run.startAt()));
                allReady = false;
                anyStarted = true;
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
                Prober.Verdict probes = prober.verdict(c, run.startAt(), now);
                if (probes.nextChange().isPresent()) {
                    recheck = min(recheck, Duration.between(now, probes.nextChange().get()));
                }
                allReady &= probes.ready();
                b.withContainerID(run.containerId()).withImageID(imageId(c.getImage())).withReady(probes.ready()).withStarted(probes.started())
                        .withState(new ContainerStateBuilder().withNewRunning().withStartedAt(ts(run.startAt())).endRunning().build());
                if (run.previous() != null) {
                    b.withLastState(terminated(run.previous()));
                } else if (old != null && old.getLastState() != null && run.restartCount() > 0) {
                    b.withLastState(old.getLastState());
                }
                anyStarted = true;
            }
            statuses.add(b.build());
        }
        String phase = anyStarted ? "Running" : "Pending";
        boolean finished = !finalExitCodes.isEmpty() && finalExitCodes.size() == pod.getSpec().getContainers().size();
        if (finished) {
            phase = finalExitCodes.stream().allMatch(code -> code == 0) ? "Succeeded" : "Failed";
        }
        List<ContainerStatus> initStatuses = new ArrayList<>();
        if (pod.getSpec().getInitContainers() != null) {
            for (Container c : pod.getSpec().getInitContainers()) {
                ContainerStatus old = find(current.getInitContainerStatuses(), c.getName());
                if ("Always".equals(c.getRestartPolicy())) {
                    initStatuses.add(nativeSidecar(c, old, finished, now));
                    continue;
                }
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
        String notReady = finished ? "PodCompleted" : "ContainersNotReady";
        setCondition(conditions, "ContainersReady", allReady ? "True" : "False", allReady ? null : notReady, nowTs);
        setCondition(conditions, "Ready", allReady && gatesTrue ? "True" : "False",
                allReady ? (gatesTrue ? null : "ReadinessGatesNotReady") : notReady, nowTs);
        setCondition(conditions, "PodScheduled", "True", null, nowTs);
        PodStatusBuilder next = new PodStatusBuilder(current)
                .withPhase(phase)
                .withHostIP(hostIp).withHostIPs(new io.fabric8.kubernetes.api.model.HostIP(hostIp))
                .withPodIP(podIp).withPodIPs(new PodIP(podIp))
                .withStartTime(current.getStartTime() != null ? current.getStartTime() : nowTs)
                .withConditions(conditions)
                .withContainerStatuses(statuses)
                .withInitContainerStatuses(initStatuses.isEmpty() ? null : initStatuses);
        Duration[] ephemeralRecheck = {null};
        next.withEphemeralContainerStatuses(ephemeral.statuses(pod, now, ephemeralRecheck));
        if (ephemeralRecheck[0] != null) {
            recheck = min(recheck, ephemeralRecheck[0]);
        }
        return new Sync(next.build(), Optional.ofNullable(recheck));
    }

    /**
     * A container that exits on its own under restartPolicy OnFailure with a non-zero code is started again
     * {@code restartDelay} after each exit (restart count + 1); runs that ended before {@code now} are played through.
     */
    private Run restartAfterExits(String key, Run run, ContainerExit exit, Pod pod, Container c, Instant now) {
        if (!ContainerExits.restarts(pod, exit.code())) {
            return run;
        }
        Duration gap = restartDelay.compareTo(Duration.ofMillis(10)) < 0 ? Duration.ofMillis(10) : restartDelay;
        for (int i = 0; i < 1000; i++) {
            Instant exitAt = run.startAt().plus(exit.after());
            if (now.isBefore(exitAt)) {
                break;
            }
            Entry e = containers.get(runtimeId(run.containerId()));
            if (e != null && e.finishedAt == null) {
                e.finishedAt = exitAt;
                e.exitCode = exit.code();
            }
            Run next = new Run(run.image(), exitAt.plus(gap), newContainerId(), run.restartCount() + 1,
                    new Ended(run.containerId(), run.startAt(), exitAt, exit.code()));
            runs.put(key, next);
            if (e != null) {
                register(next, e.node, e, now);
            } else {
                register(next, pod.getSpec().getNodeName(), pod, c, now);
            }
            run = next;
        }
        return run;
    }

    /**
     * A running container whose liveness (or startup) probe failed is killed when it failed (exit code 137) and
     * started again after the restart delay, as often as that happened by {@code now}.
     */
    private Run restartOnProbeFailure(Pod pod, Container c, String key, Run run, Instant now) {
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
            Entry e = containers.get(runtimeId(run.containerId()));
            if (e != null && e.finishedAt == null) {
                e.finishedAt = at;
                e.exitCode = 137;
            }
            Run next = new Run(run.image(), at.plus(restartDelay).plus(rules.apply(c.getImage()).startDelay()), newContainerId(),
                    run.restartCount() + 1, new Ended(run.containerId(), run.startAt(), at, 137));
            runs.put(key, next);
            register(next, pod.getSpec().getNodeName(), pod, c, at);
            run = next;
        }
        return run;
    }

    /** The status of a container that ended for good: terminated with its exit code, as kubelet reports it. */
    private ContainerStatus exited(Container c, Run run, int code, Instant exitAt) {
        Entry e = containers.get(runtimeId(run.containerId()));
        if (e != null && e.finishedAt == null) {
            e.finishedAt = exitAt;
            e.exitCode = code;
        }
        ContainerStatusBuilder b = new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                .withImageID(imageId(c.getImage())).withContainerID(run.containerId()).withReady(false).withStarted(false)
                .withRestartCount(run.restartCount())
                .withState(terminated(new Ended(run.containerId(), run.startAt(), exitAt, code)));
        if (run.previous() != null) {
            b.withLastState(terminated(run.previous()));
        }
        return b.build();
    }

    /**
     * A native sidecar (an init container with restartPolicy Always): running and ready beside the main containers,
     * terminated (exit code 0) once they have all finished.
     */
    private static ContainerStatus nativeSidecar(Container c, ContainerStatus old, boolean podFinished, Instant now) {
        String id = old != null && old.getContainerID() != null ? old.getContainerID() : newContainerId();
        String started = old != null && old.getState() != null && old.getState().getRunning() != null
                ? old.getState().getRunning().getStartedAt() : ts(now);
        ContainerStatusBuilder b = new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                .withImageID(imageId(c.getImage())).withContainerID(id).withRestartCount(0);
        if (podFinished) {
            if (old != null && old.getState() != null && old.getState().getTerminated() != null) {
                return b.withReady(false).withStarted(false).withState(old.getState()).build();
            }
            return b.withReady(false).withStarted(false).withState(new ContainerStateBuilder().withNewTerminated().withExitCode(0)
                    .withReason("Completed").withContainerID(id).withStartedAt(started).withFinishedAt(ts(now)).endTerminated().build()).build();
        }
        return b.withReady(true).withStarted(true)
                .withState(new ContainerStateBuilder().withNewRunning().withStartedAt(started).endRunning().build()).build();
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
        return new Run(c.getImage(), now.plus(delay), newContainerId(), restarts, null);
    }

    private static ContainerState terminated(Ended ended) {
        return new ContainerStateBuilder().withNewTerminated().withExitCode(ended.exitCode())
                .withReason(ended.exitCode() == 0 ? "Completed" : "Error").withContainerID(ended.containerId())
                .withStartedAt(ts(ended.startedAt())).withFinishedAt(ts(ended.finishedAt())).endTerminated().build();
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

    /** How the kubelet prefixes runtime ids in pod status: {@code <runtime>://<id>}. */
    static final String RUNTIME_PREFIX = "containerd://";

    static String newContainerId() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return RUNTIME_PREFIX + HexFormat.of().formatHex(b);
    }

    /** The id without its {@code <runtime>://} prefix, as the CRI names containers. */
    public static String runtimeId(String containerId) {
        int sep = containerId.indexOf("://");
        return sep < 0 ? containerId : containerId.substring(sep + 3);
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
