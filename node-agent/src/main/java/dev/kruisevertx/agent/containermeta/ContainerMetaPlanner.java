package dev.kruisevertx.agent.containermeta;

import dev.kruisevertx.api.common.RuntimeContainerHashes;
import dev.kruisevertx.api.common.RuntimeContainerMeta;
import dev.kruisevertx.api.common.RuntimeContainerMetaSet;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.inplace.EnvFromMetadataHash;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The pure decisions of the container-meta job, as kruise-daemon's containermeta controller: which pod events are
 * worth a look, which containers' env must be read from the runtime, what {@code apps.kruise.io/runtime-containers-meta}
 * should say, and which containers must be restarted because they run with env values their pod's labels/annotations
 * no longer hold (only while the pod is being updated in place: condition InPlaceUpdateReady False).
 */
public final class ContainerMetaPlanner {
    /** The pod condition an in-place update sets False until it completes. */
    static final String IN_PLACE_UPDATE_READY = "InPlaceUpdateReady";
    private static final String KRUISE_GROUP = "apps.kruise.io";

    private ContainerMetaPlanner() {
    }

    /**
     * What the runtime shows of the container a pod status entry names.
     *
     * @param plainHash kubelet's container hash from the runtime's annotations (0 when absent)
     * @param env       the container's environment as {@code env} printed it; null when it could not be read
     */
    public record Observed(String containerId, boolean running, long plainHash, Map<String, String> env) {
    }

    /**
     * @param metaSet   what the annotation should hold
     * @param changed   whether that differs from what the pod holds now (so it must be written)
     * @param restart   container ids (as the pod status shows them) to stop so the kubelet starts them again
     * @param retry     some env could not be read: look again shortly
     */
    public record Plan(RuntimeContainerMetaSet metaSet, boolean changed, List<String> restart, boolean retry) {
    }

    /** Whether a pod event is worth a sync; {@code old} is null for an added pod. */
    public static boolean worthSync(Pod old, Pod now, boolean envGate) {
        if (now == null || !managedByKruise(now)) {
            return false;
        }
        RuntimeContainerMetaSet meta = readMeta(now);
        // Pods met at start without meta are not reported at once, to spare the API server a burst of writes.
        if (old == null && meta == null) {
            return false;
        }
        if (old != null && containers(old).size() != containers(now).size()) {
            return true;
        }
        List<ContainerStatus> statuses = statuses(now);
        for (ContainerStatus cs : statuses) {
            if (cs.getContainerID() == null || cs.getContainerID().isEmpty()) {
                continue;
            }
            if (meta == null || meta.getContainers() == null || meta.getContainers().size() != statuses.size()) {
                return true;
            }
            RuntimeContainerMeta m = metaOf(meta, cs.getName());
            if (m == null || !Objects.equals(m.getContainerID(), cs.getContainerID())) {
                return true;
            }
            if (envGate) {
                Container spec = spec(now, cs.getName()).orElse(null);
                if (spec == null) {
                    continue;
                }
                long expected = expected(spec, now);
                if (expected != envHash(m)) {
                    return true;
                }
                Container oldSpec = old == null ? null : spec(old, cs.getName()).orElse(null);
                if (oldSpec != null && expected != expected(oldSpec, old)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Names of the containers whose environment must be read before {@link #plan}: running, no env hash yet. */
    public static List<String> needEnv(Pod pod, Map<String, Observed> observed, boolean envGate) {
        List<String> out = new ArrayList<>();
        if (!envGate) {
            return out;
        }
        RuntimeContainerMetaSet old = readMeta(pod);
        for (ContainerStatus cs : statuses(pod)) {
            Observed o = observed.get(cs.getName());
            if (o == null || !o.running() || spec(pod, cs.getName()).isEmpty()) {
                continue;
            }
            RuntimeContainerMeta kept = byId(old, o.containerId());
            if (kept == null || envHash(kept) == 0) {
                out.add(cs.getName());
            }
        }
        return out;
    }

    /** The new meta set and the restarts, from the pod and what the runtime shows of its containers (by name). */
    public static Plan plan(Pod pod, Map<String, Observed> observed, boolean envGate) {
        RuntimeContainerMetaSet old = readMeta(pod);
        RuntimeContainerMetaSet next = new RuntimeContainerMetaSet();
        List<RuntimeContainerMeta> metas = new ArrayList<>();
        List<String> restart = new ArrayList<>();
        boolean retry = false;
        boolean updating = Pods.condition(pod, IN_PLACE_UPDATE_READY).map(c -> "False".equals(c.getStatus()))
                .orElse(false);
        for (ContainerStatus cs : statuses(pod)) {
            Observed o = observed.get(cs.getName());
            Container spec = spec(pod, cs.getName()).orElse(null);
            if (o == null || spec == null) {
                continue;
            }
            RuntimeContainerMeta meta = copy(byId(old, o.containerId()));
            if (meta == null) {
                meta = new RuntimeContainerMeta();
                meta.setName(cs.getName());
                meta.setContainerID(o.containerId());
                meta.setRestartCount(cs.getRestartCount() == null ? 0 : cs.getRestartCount());
                RuntimeContainerHashes hashes = new RuntimeContainerHashes();
                hashes.setPlainHash(o.plainHash());
                meta.setHashes(hashes);
            }
            if (envGate) {
                if (envHash(meta) == 0 && o.running()) {
                    if (o.env() == null) {
                        retry = true;
                    } else {
                        meta.getHashes().setExtractedEnvFromMetadataHash(
                                EnvFromMetadataHash.current(spec, o.env()::get));
                    }
                }
                long current = envHash(meta);
                if (updating && current > 0 && current != expected(spec, pod)) {
                    restart.add(o.containerId());
                }
            }
            metas.add(meta);
        }
        next.setContainers(metas);
        return new Plan(next, !next.equals(old), restart, retry);
    }

    /** The pod's annotation, or null when absent or unreadable (then it is simply written anew). */
    static RuntimeContainerMetaSet readMeta(Pod pod) {
        try {
            return RuntimeContainerMetaSet.readFrom(pod).orElse(null);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static boolean managedByKruise(Pod pod) {
        if (Pods.annotations(pod).containsKey(WellKnown.SIDECARSET_HASH_ANNOTATION)) {
            return true;
        }
        Optional<OwnerReference> owner = Pods.controllerOf(pod);
        if (owner.isEmpty() || owner.get().getApiVersion() == null) {
            return false;
        }
        String apiVersion = owner.get().getApiVersion();
        int slash = apiVersion.indexOf('/');
        return slash > 0 && KRUISE_GROUP.equals(apiVersion.substring(0, slash));
    }

    private static long expected(Container spec, Pod pod) {
        return EnvFromMetadataHash.expected(spec, pod.getMetadata().getLabels(), pod.getMetadata().getAnnotations());
    }

    private static long envHash(RuntimeContainerMeta m) {
        return m.getHashes() == null ? 0 : m.getHashes().getExtractedEnvFromMetadataHash();
    }

    private static RuntimeContainerMeta metaOf(RuntimeContainerMetaSet set, String name) {
        if (set == null || set.getContainers() == null) {
            return null;
        }
        for (RuntimeContainerMeta m : set.getContainers()) {
            if (name.equals(m.getName())) {
                return m;
            }
        }
        return null;
    }

    private static RuntimeContainerMeta byId(RuntimeContainerMetaSet set, String containerId) {
        if (set == null || set.getContainers() == null || containerId == null) {
            return null;
        }
        RuntimeContainerMeta found = null;
        for (RuntimeContainerMeta m : set.getContainers()) {
            if (containerId.equals(m.getContainerID())) {
                found = m;
            }
        }
        return found;
    }

    private static RuntimeContainerMeta copy(RuntimeContainerMeta m) {
        if (m == null) {
            return null;
        }
        RuntimeContainerMeta c = new RuntimeContainerMeta();
        c.setName(m.getName());
        c.setContainerID(m.getContainerID());
        c.setRestartCount(m.getRestartCount());
        RuntimeContainerHashes h = new RuntimeContainerHashes();
        if (m.getHashes() != null) {
            h.setPlainHash(m.getHashes().getPlainHash());
            h.setPlainHashWithoutResources(m.getHashes().getPlainHashWithoutResources());
            h.setExtractedEnvFromMetadataHash(m.getHashes().getExtractedEnvFromMetadataHash());
        }
        c.setHashes(h);
        return c;
    }

    private static Optional<Container> spec(Pod pod, String name) {
        return containers(pod).stream().filter(c -> name.equals(c.getName())).findFirst();
    }

    private static List<Container> containers(Pod pod) {
        return pod.getSpec() == null || pod.getSpec().getContainers() == null ? List.of() : pod.getSpec().getContainers();
    }

    private static List<ContainerStatus> statuses(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null ? List.of()
                : pod.getStatus().getContainerStatuses();
    }
}
