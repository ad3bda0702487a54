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

    /** What a container is, fixed when the runtime creates it. */
    private record Identity(String id, String node, String podUid, String podNamespace, String podName,
            String containerName, String image, int attempt, Instant createdAt, Instant startAt,
            Map<String, String> env) {
        /** The next container of the same pod container, on the same node; null env: the same as this one's. */
        Identity next(String nextId, int nextAttempt, Instant nextCreatedAt, Instant nextStartAt,
                      Map<String, String> nextEnv) {
            return new Identity(nextId, node, podUid, podNamespace, podName, containerName, image, nextAttempt,
                    nextCreatedAt, nextStartAt, nextEnv == null ? env : nextEnv);
        }
    }

    /** A container of the table; {@code finishedAt} is set once it exited. */
    private static final class Entry {
        final Identity is;
        Instant finishedAt;
        int exitCode;

        Entry(Identity is) {
            this.is = is;
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
        containers.put(id, new Entry(new Identity(id, node, pod.getMetadata().getUid(),
                pod.getMetadata().getNamespace(), pod.getMetadata().getName(), c.getName(), c.getImage(), attempt,
                createdAt, startAt, SimEnv.resolve(pod, c))));
    }

    /**
     * Creates the next container of the same pod container as {@code likeId}, on the same node; false when the
     * table has no {@code likeId}. {@code env}: what the new container starts with (resolved from the pod as it is
     * now), or null for the same as {@code likeId}'s.
     */
    boolean createLike(String likeId, String id, int attempt, Instant createdAt, Instant startAt,
                       Map<String, String> env) {
        Entry like = containers.get(likeId);
        if (like == null) {
            return false;
        }
        containers.put(id, new Entry(like.is.next(id, attempt, createdAt, startAt, env)));
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
        containers.values().removeIf(e -> e.is.podUid().equals(podUid));
    }

    /** The containers of {@code node} as of {@code now}, oldest first. */
    List<SimContainer> containers(String node, Instant now) {
        List<SimContainer> out = new ArrayList<>();
        for (Entry e : containers.values()) {
            if (e.is.node().equals(node)) {
                out.add(view(e, now));
            }
        }
        return out;
    }

    /** One container of {@code node}, by runtime id. */
    Optional<SimContainer> container(String node, String id, Instant now) {
        Entry e = containers.get(id);
        return e == null || !e.is.node().equals(node) ? Optional.empty() : Optional.of(view(e, now));
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
            if (e.is.node().equals(node)) {
                out.add(e.is.image());
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
        ImageRule rule = rules.apply(e.is.image());
        SimContainer.State state;
        Instant started = null;
        Instant finished = e.finishedAt;
        int exitCode = e.exitCode;
        if (finished != null) {
            state = SimContainer.State.EXITED;
            started = e.is.startAt().isAfter(finished) ? null : e.is.startAt();
        } else if (now.isBefore(e.is.startAt())) {
            state = SimContainer.State.CREATED;
        } else if (rule.failure() == ContainerFailure.CRASH_LOOP) {
            state = SimContainer.State.EXITED;
            started = e.is.startAt();
            finished = e.is.startAt();
            exitCode = 1;
        } else {
            state = SimContainer.State.RUNNING;
            started = e.is.startAt();
        }
        Identity is = e.is;
        return new SimContainer(is.id(), is.node(), is.podUid(), is.podNamespace(), is.podName(), is.containerName(),
                is.image(), is.attempt(), is.createdAt(), started, finished, exitCode, state, is.env());
    }
}
