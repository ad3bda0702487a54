package dev.kruisevertx.webhook.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.workloadspread.AdmissionOperation;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import dev.kruisevertx.workloadspread.MatchedWorkloadSpread;
import dev.kruisevertx.workloadspread.PodVersions;
import dev.kruisevertx.workloadspread.SubsetChoice;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The pod webhook's WorkloadSpread bookkeeping (OpenKruise v1.9's {@code acquireSuitableSubset}): decides the subset
 * of a pod with {@link SubsetChoice} and records the creation or deletion in the WorkloadSpread's status, retrying
 * on conflict as client-go's {@code RetryOnConflict(DefaultBackoff)} does (4 attempts, 10 ms × 5ⁿ with 10 % jitter),
 * one decision per WorkloadSpread at a time on this replica. Each attempt starts from the newer of the status this
 * replica wrote last and the watch cache's; after a conflict it reads the API server.
 *
 * <p>Blocking (API calls, backoff sleeps bounded at about 0.35 s): run on worker threads only.
 */
public final class WorkloadSpreadPodRecorder {
    private static final Logger LOG = LoggerFactory.getLogger(WorkloadSpreadPodRecorder.class);
    /** client-go's retry.DefaultBackoff. */
    static final int RETRY_STEPS = 4;
    static final Duration RETRY_FIRST_DELAY = Duration.ofMillis(10);
    static final double RETRY_FACTOR = 5.0;
    static final double RETRY_JITTER = 0.1;
    /** Owner hops followed from a pod to its workload (ReplicaSet to Deployment needs one). */
    private static final int MAX_OWNER_HOPS = 4;

    /** The subset the pod was admitted into; {@code ws} is the WorkloadSpread the decision read. */
    public record Placement(WorkloadSpread ws, String subset, String generatedUid) {
    }

    /** Sleeps between attempts; tests pass one that records the delays. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    private final WorkloadSpreadStore store;
    private final PodVersions versions;
    private final Supplier<CustomWorkloadWhiteList> whitelist;
    private final Clock clock;
    private final Supplier<String> uids;
    private final Sleeper sleeper;
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    /** The last object this replica wrote per WorkloadSpread uid (OpenKruise's GlobalCache). */
    private final Map<String, WorkloadSpread> written = new ConcurrentHashMap<>();

    public WorkloadSpreadPodRecorder(WorkloadSpreadStore store, PodVersions versions,
                                     Supplier<CustomWorkloadWhiteList> whitelist) {
        this(store, versions, whitelist, Clock.systemUTC(), () -> UUID.randomUUID().toString(),
                d -> Thread.sleep(d.toMillis()));
    }

    public WorkloadSpreadPodRecorder(WorkloadSpreadStore store, PodVersions versions,
                                     Supplier<CustomWorkloadWhiteList> whitelist, Clock clock, Supplier<String> uids,
                                     Sleeper sleeper) {
        this.store = store;
        this.versions = versions;
        this.whitelist = whitelist;
        this.clock = clock;
        this.uids = uids;
        this.sleeper = sleeper;
    }

    /** The WorkloadSpread lookups and writes this recorder uses. */
    public WorkloadSpreadStore store() {
        return store;
    }

    /** The whitelisted custom workload kinds (a malformed whitelist counts as empty here). */
    public CustomWorkloadWhiteList customWorkloads() {
        try {
            return whitelist.get();
        } catch (RuntimeException e) {
            return CustomWorkloadWhiteList.EMPTY;
        }
    }

    /**
     * Records a creation: the subset for the pod, empty when the WorkloadSpread has none for it (every subset full or
     * unschedulable) or is gone.
     *
     * @throws KubernetesClientException when the status cannot be written (conflicts past the retries included)
     */
    public Optional<Placement> recordCreation(WorkloadSpread matched, Pod pod) {
        if (matched.spec().subsets().size() == 1 && matched.spec().subsets().get(0).getMaxReplicas() == null) {
            return Optional.of(new Placement(matched, matched.spec().subsets().get(0).getName(), ""));
        }
        return record(matched, ws -> SubsetChoice.forCreate(ws, pod, versions, () -> store.workloadReplicas(ws),
                clock.instant(), uids));
    }

    /**
     * Records a deletion or eviction of a pod the WorkloadSpread admitted into {@code injected.subset()}.
     *
     * @throws KubernetesClientException when the status cannot be written
     */
    public void recordDeletion(WorkloadSpread matched, Pod pod, MatchedWorkloadSpread injected,
                               AdmissionOperation operation) {
        if (matched.spec().subsets().size() == 1 && matched.spec().subsets().get(0).getMaxReplicas() == null) {
            return;
        }
        LOG.debug("recording {} of pod {} in WorkloadSpread {}", operation.value(), pod.getMetadata().getName(),
                matched.getMetadata().getName());
        record(matched, ws -> SubsetChoice.forDeletion(ws, pod, injected, versions, () -> store.workloadReplicas(ws),
                clock.instant()));
    }

    private Optional<Placement> record(WorkloadSpread matched,
                                       java.util.function.Function<WorkloadSpread, SubsetChoice.Decision> decide) {
        String key = matched.getMetadata().getUid() == null
                ? matched.getMetadata().getNamespace() + "/" + matched.getMetadata().getName()
                : matched.getMetadata().getUid();
        ReentrantLock lock = locks.computeIfAbsent(key, k -> new ReentrantLock());
        boolean refresh = false;
        Duration delay = RETRY_FIRST_DELAY;
        for (int attempt = 1; ; attempt++) {
            WorkloadSpread current;
            SubsetChoice.Decision decision;
            lock.lock();
            try {
                current = latest(matched, key, refresh);
                if (current == null) {
                    return Optional.empty();
                }
                decision = decide.apply(current);
                if (!decision.statusChanged()) {
                    return placement(current, decision);
                }
                WorkloadSpread stored = store.updateStatus(withStatus(current, decision));
                written.put(key, stored);
                return placement(current, decision);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= RETRY_STEPS) {
                    throw e;
                }
                refresh = true;
            } finally {
                lock.unlock();
            }
            sleep(delay);
            delay = Duration.ofNanos((long) (delay.toNanos() * RETRY_FACTOR));
        }
    }

    private static Optional<Placement> placement(WorkloadSpread ws, SubsetChoice.Decision decision) {
        return decision.subset() == null ? Optional.empty()
                : Optional.of(new Placement(ws, decision.subset(), decision.generatedUid()));
    }

    private void sleep(Duration delay) {
        long jitter = (long) (delay.toNanos() * RETRY_JITTER * ThreadLocalRandom.current().nextDouble());
        try {
            sleeper.sleep(delay.plusNanos(jitter));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted while retrying the WorkloadSpread status write", e);
        }
    }

    /**
     * The object to decide on: after a conflict the API server's; otherwise the newer (by resourceVersion) of what
     * this replica wrote last and the watch cache's, or the matched object when neither is known. Null when gone.
     */
    private WorkloadSpread latest(WorkloadSpread matched, String key, boolean refresh) {
        String ns = matched.getMetadata().getNamespace();
        String name = matched.getMetadata().getName();
        if (refresh) {
            Optional<WorkloadSpread> fresh = store.latest(ns, name);
            if (fresh.isEmpty()) {
                written.remove(key);
                return null;
            }
            return fresh.get();
        }
        WorkloadSpread local = written.getOrDefault(key, matched);
        Optional<WorkloadSpread> cached = store.cached(ns, name);
        if (cached.isPresent() && resourceVersion(local) < resourceVersion(cached.get())) {
            return cached.get();
        }
        return local;
    }

    private static long resourceVersion(WorkloadSpread ws) {
        try {
            return Long.parseLong(ws.getMetadata().getResourceVersion());
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** A new object with the decided status over {@code ws}'s metadata (the cached object stays as it is). */
    private static WorkloadSpread withStatus(WorkloadSpread ws, SubsetChoice.Decision decision) {
        WorkloadSpread out = new WorkloadSpread();
        ObjectMeta meta = new ObjectMetaBuilder(ws.getMetadata()).build();
        out.setMetadata(meta);
        out.setSpec(ws.getSpec());
        out.setStatus(decision.status());
        return out;
    }

    /** Forgets what this replica wrote for a WorkloadSpread that is gone. */
    public void forget(String uid) {
        if (uid != null) {
            written.remove(uid);
            locks.remove(uid);
        }
    }

    /**
     * OpenKruise's {@code isReferenceEqual}: the owner is the target (same group, kind and name), or it is a known
     * workload whose own controller chain leads to the target (a ReplicaSet owned by the target Deployment).
     *
     * @throws KubernetesClientException when an owner in the chain cannot be read (404 when it is gone)
     */
    public boolean referenceEqual(TargetReference target, OwnerReference owner, String namespace) {
        OwnerReference current = owner;
        for (int hop = 0; hop < MAX_OWNER_HOPS && current != null; hop++) {
            if (WorkloadKinds.group(target.getApiVersion()).equals(WorkloadKinds.group(current.getApiVersion()))
                    && target.getKind().equals(current.getKind()) && target.getName().equals(current.getName())) {
                return true;
            }
            if (!WorkloadKinds.known(current, this::customWorkloads)) {
                return false;
            }
            current = store.controllerOf(namespace, current).orElse(null);
        }
        return false;
    }
}
