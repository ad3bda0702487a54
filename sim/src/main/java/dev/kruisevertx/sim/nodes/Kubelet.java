package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.sim.nodes.ContainerRuns.Ended;
import dev.kruisevertx.sim.nodes.ContainerRuns.Run;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;

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
import java.util.Optional;
import java.util.function.Function;

/**
 * What a kubelet would report for a pod on its node: containers start after their image's delay (or fail as
 * the image rules say), an in-place image change restarts only that container, and the pod is Ready only when
 * every container is ready and every readinessGate condition is True. Each container's current run, and when a
 * new one starts, is kept by {@link ContainerRuns}; the pod-level status is put together by
 * {@link PodStatusAssembler}.
 *
 * <p>It is also the simulated node's container runtime ({@link ContainerTable}): every run is a container with a
 * runtime id, and {@link #stop} and {@link #exec} act on them as a CRI runtime would (a stopped container exits and
 * the kubelet starts a new one after {@code restartDelay}, except in restartPolicy Never and OnFailure pods, where it
 * stays exited with code 0). Methods are synchronized: the kubelet's thread and the
 * CRI server's event loop share the table, and every method is a short in-memory step.
 */
public final class Kubelet {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The status to write and when to look again (for delayed starts and crash loops). */
    public record Sync(PodStatus status, Optional<Duration> recheckIn) {
    }

    private final ContainerTable table;
    private final ContainerRuns runs;
    private final Function<String, ImageRule> rules;
    private final Duration crashLoopInterval;
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
        this.table = new ContainerTable(rules);
        this.runs = new ContainerRuns(table, rules, restartDelay);
        this.exits = new ContainerExits(exitRules);
        this.ephemeral = new EphemeralRuns(rules, exits);
    }

    /**
     * Reads a ConfigMap's data for env {@code valueFrom.configMapKeyRef}: null when the ConfigMap does not exist.
     * Called only for containers not created yet that reference one (container launch priority barriers).
     */
    @FunctionalInterface
    public interface ConfigMapData {
        java.util.Map<String, String> get(String namespace, String name);
    }

    /** What a lookup answers for a ConfigMap it was not asked to read: the env is taken as resolvable. */
    static final java.util.Map<String, String> NOT_READ = java.util.Collections.unmodifiableMap(new java.util.HashMap<>());
    private ConfigMapData configMaps = (ns, name) -> NOT_READ;
    /** How often a container waiting for a ConfigMap key is looked at again (the kubelet retries with back-off). */
    static final Duration ENV_RETRY = Duration.ofMillis(300);

    /**
     * The ConfigMaps a pod's containers read through env {@code configMapKeyRef} while some container has not been
     * created yet (no containerID in its status), fetched with {@code fetch} (null: does not exist). Empty otherwise,
     * so a running pod costs no reads.
     */
    public static ConfigMapData prefetch(Pod pod, ConfigMapData fetch) {
        java.util.Map<String, java.util.Map<String, String>> found = new java.util.HashMap<>();
        List<ContainerStatus> statuses = pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses();
        for (Container c : pod.getSpec().getContainers()) {
            ContainerStatus st = find(statuses, c.getName());
            if ((st != null && st.getContainerID() != null && !st.getContainerID().isEmpty()) || c.getEnv() == null) {
                continue;
            }
            for (io.fabric8.kubernetes.api.model.EnvVar e : c.getEnv()) {
                var ref = e.getValueFrom() == null ? null : e.getValueFrom().getConfigMapKeyRef();
                if (ref != null && ref.getName() != null && !found.containsKey(ref.getName())) {
                    found.put(ref.getName(), fetch.get(pod.getMetadata().getNamespace(), ref.getName()));
                }
            }
        }
        return (ns, name) -> found.containsKey(name) ? found.get(name) : NOT_READ;
    }

    /**
     * Why the container cannot be created yet, as the kubelet's CreateContainerConfigError message, or null: a
     * non-optional env {@code configMapKeyRef} whose ConfigMap or key does not exist.
     */
    private String missingEnvSource(Pod pod, Container c) {
        if (c.getEnv() == null) {
            return null;
        }
        String ns = pod.getMetadata().getNamespace();
        for (io.fabric8.kubernetes.api.model.EnvVar e : c.getEnv()) {
            var ref = e.getValueFrom() == null ? null : e.getValueFrom().getConfigMapKeyRef();
            if (ref == null || Boolean.TRUE.equals(ref.getOptional())) {
                continue;
            }
            java.util.Map<String, String> data = configMaps.get(ns, ref.getName());
            if (data == NOT_READ) {
                continue;
            }
            if (data == null) {
                return "configmap \"" + ref.getName() + "\" not found";
            }
            if (!data.containsKey(ref.getKey())) {
                return "couldn't find key " + ref.getKey() + " in ConfigMap " + ns + "/" + ref.getName();
            }
        }
        return null;
    }

    /** The probes' answers; without one, every probe succeeds at once. */
    public synchronized void setProber(Prober prober) {
        this.prober = prober;
    }

    public synchronized void forget(String podUid) {
        runs.forget(podUid);
        ephemeral.forget(podUid);
        table.forget(podUid);
    }

    // ------------------------------------------------------------------ the runtime's view

    /** The containers of {@code node} as of {@code now}, oldest first. */
    public synchronized List<SimContainer> containers(String node, Instant now) {
        return table.containers(node, now);
    }

    /** One container of {@code node}, by runtime id. */
    public synchronized Optional<SimContainer> container(String node, String id, Instant now) {
        return table.container(node, id, now);
    }

    /**
     * Stops a container, as CRI StopContainer: a running (or created) container exits at once, and the kubelet
     * starts a new one (new id, restart count + 1) after the restart delay; the pod must then be synced again.
     * Stopping an exited container changes nothing. Empty when {@code node} has no such container.
     *
     * @throws IllegalStateException when an image rule says the runtime fails to stop this container
     */
    public synchronized Optional<SimContainer> stop(String node, String id, Instant now) {
        Optional<SimContainer> found = table.container(node, id, now);
        if (found.isEmpty() || found.get().state() == SimContainer.State.EXITED) {
            return found;
        }
        SimContainer before = found.get();
        if (rules.apply(before.image()).failure() == ContainerFailure.STOP_ERROR) {
            throw new IllegalStateException("failed to stop container \"" + id + "\": unknown error after kill: "
                    + "runc did not terminate successfully: exit status 1");
        }
        table.markExited(id, now, 0);
        runs.restartAfterStop(before, now);
        return table.container(node, id, now);
    }

    /**
     * Runs a command in a container, as CRI ExecSync: recorded, and it succeeds. Empty when {@code node} has no
     * such container; a container that is not running is returned unrecorded, for the caller to refuse.
     */
    public synchronized Optional<SimContainer> exec(String node, String id, List<String> command, Instant now) {
        return table.exec(node, id, command, now);
    }

    /**
     * Pulls an image onto a node, as CRI PullImage: fails (empty) for images an image rule says cannot be pulled;
     * otherwise returns the image reference.
     */
    public synchronized Optional<String> pull(String node, String image) {
        return table.pull(node, image);
    }

    /** The images on a node: pulled ones and those of its containers, sorted. */
    public synchronized List<String> images(String node) {
        return table.images(node);
    }

    /** Removes a pulled image from a node; images of its containers stay. */
    public synchronized void removeImage(String node, String image) {
        table.removeImage(node, image);
    }

    /** Every command run through {@link #exec}, in order. */
    public List<ExecRecord> execs() {
        return table.execs();
    }

    // ------------------------------------------------------------------ the kubelet's view

    public synchronized Sync sync(Pod pod, String hostIp, String podIp, Instant now) {
        return sync(pod, hostIp, podIp, now, configMaps);
    }

    /**
     * {@link #sync} with the ConfigMaps the pod's env reads already fetched ({@code configMapData}), so no API call
     * is made under this lock (the CRI server's event loop takes it too).
     */
    public synchronized Sync sync(Pod pod, String hostIp, String podIp, Instant now, ConfigMapData configMapData) {
        ConfigMapData saved = configMaps;
        configMaps = configMapData;
        try {
            return syncLocked(pod, hostIp, podIp, now);
        } finally {
            configMaps = saved;
        }
    }

    private Sync syncLocked(Pod pod, String hostIp, String podIp, Instant now) {
        PodStatus current = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        if ("Succeeded".equals(current.getPhase()) || "Failed".equals(current.getPhase())) {
            // A finished pod stays finished: kubelet never moves a pod out of a terminal phase.
            return new Sync(current, Optional.empty());
        }
        List<Integer> finalExitCodes = new ArrayList<>();
        List<ContainerStatus> statuses = new ArrayList<>();
        Duration recheck = null;
        boolean allReady = true;
        boolean anyStarted = false;
        for (Container c : pod.getSpec().getContainers()) {
            ContainerStatus old = find(current.getContainerStatuses(), c.getName());
            if (!runs.started(pod, c)) {
                String missing = missingEnvSource(pod, c);
                if (missing != null) {
                    // Not created until its env can be resolved (a launch priority barrier): waits, as the kubelet.
                    statuses.add(new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                            .withImageID("").withRestartCount(0).withReady(false).withStarted(false)
                            .withState(waiting("CreateContainerConfigError", missing)).build());
                    recheck = min(recheck, ENV_RETRY);
                    allReady = false;
                    continue;
                }
            }
            Run run = runs.current(pod, c, old, now);
            Optional<ContainerRuns.Ended> stopped = runs.stoppedForGood(pod, c);
            if (stopped.isPresent()) {
                statuses.add(new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                        .withImageID(imageId(c.getImage())).withContainerID(stopped.get().containerId())
                        .withRestartCount(run.restartCount()).withReady(false).withStarted(false)
                        .withState(stopped.get().asState()).build());
                finalExitCodes.add(stopped.get().exitCode());
                allReady = false;
                anyStarted = true;
                continue;
            }
            Optional<ContainerExit> exit = rules.apply(c.getImage()).failure() == ContainerFailure.NONE
                    ? exits.of(pod, c) : Optional.empty();
            if (exit.isPresent()) {
                run = runs.restartAfterExits(pod, c, run, exit.get(), now);
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
            run = runs.restartOnProbeFailure(pod, c, run, prober, now);
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
                        .withState(ended.asState());
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
                    b.withLastState(run.previous().asState());
                } else if (old != null && old.getLastState() != null && run.restartCount() > 0) {
                    b.withLastState(old.getLastState());
                }
                anyStarted = true;
            }
            statuses.add(b.build());
        }
        Duration[] ephemeralRecheck = {null};
        List<ContainerStatus> ephemeralStatuses = ephemeral.statuses(pod, now, ephemeralRecheck);
        if (ephemeralRecheck[0] != null) {
            recheck = min(recheck, ephemeralRecheck[0]);
        }
        PodStatus next = PodStatusAssembler.assemble(pod, current,
                new PodStatusAssembler.MainContainers(statuses, finalExitCodes, allReady, anyStarted),
                ephemeralStatuses, hostIp, podIp, now);
        return new Sync(next, Optional.ofNullable(recheck));
    }

    /** The status of a container that ended for good: terminated with its exit code, as kubelet reports it. */
    private ContainerStatus exited(Container c, Run run, int code, Instant exitAt) {
        table.markExited(runtimeId(run.containerId()), exitAt, code);
        ContainerStatusBuilder b = new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                .withImageID(imageId(c.getImage())).withContainerID(run.containerId()).withReady(false).withStarted(false)
                .withRestartCount(run.restartCount())
                .withState(new Ended(run.containerId(), run.startAt(), exitAt, code).asState());
        if (run.previous() != null) {
            b.withLastState(run.previous().asState());
        }
        return b.build();
    }

    private static Duration min(Duration a, Duration b) {
        return a == null || b.compareTo(a) < 0 ? b : a;
    }

    private static ContainerState waiting(String reason, String message) {
        return new ContainerStateBuilder().withNewWaiting().withReason(reason).withMessage(message).endWaiting().build();
    }

    static ContainerStatus find(List<ContainerStatus> list, String name) {
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
