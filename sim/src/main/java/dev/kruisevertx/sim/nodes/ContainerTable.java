package dev.kruisevertx.sim.nodes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The simulated node's container runtime: every container the kubelet created (by runtime id, oldest first), the
 * images pulled onto each node, and the commands run through exec. It answers as a CRI runtime would; the restart
 * decisions live in {@link ContainerRuns}. Not thread-safe on its own: {@link Kubelet} calls it under its lock.
 */
final class ContainerTable {

    /** A container of the table; {@code finishedAt} is set once it exited. */
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

        Entry(String id, String node, String podUid, String podNamespace, String podName, String containerName,
                String image, int attempt, Instant createdAt, Instant startAt) {
            this.id = id;
            this.node = node;
            this.podUid = podUid;
            this.podNamespace = podNamespace;
            this.podName = podName;
            this.containerName = containerName;
            this.image = image;
            this.attempt = attempt;
            this.createdAt = createdAt;
            this.startAt = startAt;
        }
    }

    private final Map<String, Entry> containers = new LinkedHashMap<>();
    private final List<ExecRecord> execs = new CopyOnWriteArrayList<>();
    private final Map<String, Set<String>> pulled = new HashMap<>();
    private final Function<String, ImageRule> rules;

    ContainerTable(Function<String, ImageRule> rules) {
        this.rules = rules;
    }

    /**
     * Creates the container of one run of {@code c}, unless its image cannot be pulled (then the runtime never
     * creates it).
     */
    void create(String id, String node, Pod pod, Container c, int attempt, Instant createdAt, Instant startAt) {
        if (rules.apply(c.getImage()).failure() == ContainerFailure.IMAGE_PULL_ERROR) {
            return;
        }
        containers.put(id, new Entry(id, node, pod.getMetadata().getUid(), pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(), c.getName(), c.getImage(), attempt, createdAt, startAt));
    }

    /**
     * Creates the next container of the same pod container as {@code likeId}, on the same node; false when the
     * table has no {@code likeId}.
     */
    boolean createLike(String likeId, String id, int attempt, Instant createdAt, Instant startAt) {
        Entry like = containers.get(likeId);
        if (like == null) {
            return false;
        }
        containers.put(id, new Entry(id, like.node, like.podUid, like.podNamespace, like.podName, like.containerName,
                like.image, attempt, createdAt, startAt));
        return true;
    }

    /** Marks a container exited at {@code at} with {@code exitCode}; one that already exited keeps how it ended. */
    void markExited(String id, Instant at, int exitCode) {
        Entry e = containers.get(id);
        if (e != null && e.finishedAt == null) {
            e.finishedAt = at;
            e.exitCode = exitCode;
        }
    }

    void forget(String podUid) {
        containers.values().removeIf(e -> e.podUid.equals(podUid));
    }

    /** The containers of {@code node} as of {@code now}, oldest first. */
    List<SimContainer> containers(String node, Instant now) {
        List<SimContainer> out = new ArrayList<>();
        for (Entry e : containers.values()) {
            if (e.node.equals(node)) {
                out.add(view(e, now));
            }
        }
        return out;
    }

    /** One container of {@code node}, by runtime id. */
    Optional<SimContainer> container(String node, String id, Instant now) {
        Entry e = containers.get(id);
        return e == null || !e.node.equals(node) ? Optional.empty() : Optional.of(view(e, now));
    }

    /** Records a command run in a container that is running now; see {@link Kubelet#exec}. */
    Optional<SimContainer> exec(String node, String id, List<String> command, Instant now) {
        Optional<SimContainer> c = container(node, id, now);
        if (c.isPresent() && c.get().state() == SimContainer.State.RUNNING) {
            SimContainer running = c.get();
            execs.add(new ExecRecord(node, running.podNamespace(), running.podName(), running.containerName(), id,
                    List.copyOf(command), now));
        }
        return c;
    }

    /** Every command run through {@link #exec}, in order. */
    List<ExecRecord> execs() {
        return List.copyOf(execs);
    }

    /** See {@link Kubelet#pull}. */
    Optional<String> pull(String node, String image) {
        if (rules.apply(image).failure() == ContainerFailure.IMAGE_PULL_ERROR) {
            return Optional.empty();
        }
        pulled.computeIfAbsent(node, n -> new TreeSet<>()).add(image);
        return Optional.of(Kubelet.imageId(image));
    }

    /** The images on a node: pulled ones and those of its containers, sorted. */
    List<String> images(String node) {
        TreeSet<String> out = new TreeSet<>(pulled.getOrDefault(node, Set.of()));
        for (Entry e : containers.values()) {
            if (e.node.equals(node)) {
                out.add(e.image);
            }
        }
        return List.copyOf(out);
    }

    /** Removes a pulled image from a node; images of its containers stay. */
    void removeImage(String node, String image) {
        Set<String> set = pulled.get(node);
        if (set != null) {
            set.remove(image);
        }
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
}
