package dev.kruisevertx.agent.containermeta;

import dev.kruisevertx.agent.cri.CriClient;
import dev.kruisevertx.agent.cri.CriException;
import dev.kruisevertx.agent.crr.ObservedContainer;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cri.v1.ContainerState;
import dev.kruisevertx.cri.v1.ContainerStatus;
import dev.kruisevertx.inplace.EnvFromMetadataHash;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.queue.BucketRateLimiter;
import dev.kruisevertx.queue.ItemExponentialFailureRateLimiter;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The node agent's container-meta job (gate DaemonWatchingPod), as kruise-daemon's containermeta controller: it
 * watches only the pods of its node (field selector {@code spec.nodeName}), keeps
 * {@code apps.kruise.io/runtime-containers-meta} on each Kruise-managed pod up to date (container ids, kubelet hash,
 * and, with gate InPlaceUpdateEnvFromMetadata, the hash of the env values the running container really has, read with
 * {@code env} through CRI ExecSync), and stops (CRI StopContainer, so the kubelet starts it again with the new values)
 * a container whose env-from-metadata no longer matches the pod while the pod is updated in place.
 *
 * <p>Decisions are {@link ContainerMetaPlanner}'s; this class only observes and acts. Writes go to the pod's status
 * subresource (as kruise-daemon, so no admission webhook sees them) at a bounded rate shared by the whole node;
 * restarts of one container back off from 3 s to 10 min as kruise-daemon's restarter queue.
 */
public final class ContainerMetaAgent {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerMetaAgent.class);
    /** Pod events are looked at after this delay, so a burst of status updates becomes one sync. */
    public static final Duration DEFAULT_EVENT_DELAY = Duration.ofSeconds(1);
    private static final Duration ENV_READ_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration ENV_RETRY = Duration.ofSeconds(3);
    private static final Duration MAX_RETRY = Duration.ofSeconds(50);
    private static final long DEFAULT_GRACE_SECONDS = 30;
    /** The kubelet keeps its container hash in this runtime annotation (hex). */
    static final String KUBELET_HASH_ANNOTATION = "io.kubernetes.container.hash";

    private final Vertx vertx;
    private final KubernetesClient kube;
    private final CriClient cri;
    private final String nodeName;
    private final boolean envGate;
    private final Duration eventDelay;
    private final BucketRateLimiter<String> writes;
    private final ItemExponentialFailureRateLimiter<String> restarts =
            new ItemExponentialFailureRateLimiter<>(Duration.ofSeconds(3), Duration.ofMinutes(10));
    private final Set<String> running = new HashSet<>();
    private final Set<String> dirty = new HashSet<>();
    private final Set<String> restartsPending = new HashSet<>();
    private final Map<String, Integer> failures = new HashMap<>();
    /** The annotation last written per pod uid: the watch may still show the older pod, which needs no new write. */
    private final Map<String, String> written = new HashMap<>();
    private Context context;
    private SharedIndexInformer<Pod> informer;
    private volatile boolean stopped;

    /**
     * @param writeQps   annotation writes per second for the whole node (kruise-daemon's client default is 5)
     * @param writeBurst how many writes may go at once before {@code writeQps} applies
     */
    public ContainerMetaAgent(Vertx vertx, KubernetesClient kube, CriClient cri, String nodeName, boolean envGate,
                              Duration eventDelay, double writeQps, int writeBurst) {
        this.vertx = vertx;
        this.kube = kube;
        this.cri = cri;
        this.nodeName = nodeName;
        this.envGate = envGate;
        this.eventDelay = eventDelay;
        this.writes = new BucketRateLimiter<>(writeQps, writeBurst);
    }

    public ContainerMetaAgent(Vertx vertx, KubernetesClient kube, CriClient cri, String nodeName, boolean envGate) {
        this(vertx, kube, cri, nodeName, envGate, DEFAULT_EVENT_DELAY, 5, 10);
    }

    /** Starts watching this node's pods; completes once the first list is in. */
    public Future<Void> start() {
        context = vertx.getOrCreateContext();
        return vertx.<Void>executeBlocking(() -> {
            informer = kube.pods().inAnyNamespace().withField("spec.nodeName", nodeName).runnableInformer(0);
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(Pod pod) {
                    if (ContainerMetaPlanner.worthSync(null, pod, envGate)) {
                        later(key(pod));
                    }
                }

                @Override
                public void onUpdate(Pod old, Pod now) {
                    if (ContainerMetaPlanner.worthSync(old, now, envGate)) {
                        later(key(now));
                    }
                }

                @Override
                public void onDelete(Pod pod, boolean unknownFinalState) {
                    String uid = pod.getMetadata().getUid();
                    context.runOnContext(v -> written.remove(uid));
                }
            });
            try {
                informer.run();
            } catch (RuntimeException e) {
                informer.close();
                throw e;
            }
            return null;
        }).onSuccess(v -> LOG.info("watching the pods of node {} for container meta", nodeName));
    }

    public Future<Void> stop() {
        stopped = true;
        return informer == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
            informer.close();
            return null;
        });
    }

    private static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    /** Informer callbacks run on the client's thread: hop to this agent's context, where all state lives. */
    private void later(String podKey) {
        if (stopped) {
            return;
        }
        vertx.setTimer(Math.max(1, eventDelay.toMillis()), t -> context.runOnContext(v -> enqueue(podKey)));
    }

    private void enqueue(String podKey) {
        if (stopped) {
            return;
        }
        if (running.contains(podKey)) {
            dirty.add(podKey);
            return;
        }
        running.add(podKey);
        Future<Duration> step;
        try {
            step = sync(podKey);
        } catch (RuntimeException e) {
            step = Future.failedFuture(e);
        }
        step.onComplete(ar -> {
            running.remove(podKey);
            Duration recheck;
            if (ar.failed()) {
                int n = failures.merge(podKey, 1, Integer::sum);
                recheck = Duration.ofMillis(Math.min(MAX_RETRY.toMillis(), 500L << Math.min(n, 7)));
                LOG.warn("container meta of pod {} not reported (retry in {} ms): {}", podKey, recheck.toMillis(),
                        ar.cause().toString());
            } else {
                failures.remove(podKey);
                recheck = ar.result();
            }
            if (dirty.remove(podKey)) {
                enqueue(podKey);
            } else if (recheck != null && !stopped) {
                vertx.setTimer(Math.max(1, recheck.toMillis()), t -> context.runOnContext(v -> enqueue(podKey)));
            }
        });
    }

    /** One look at one pod; the result is when to look again without an event (null: only on events). */
    private Future<Duration> sync(String podKey) {
        Pod pod = informer.getStore().getByKey(podKey);
        if (pod == null || pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null
                || pod.getStatus().getContainerStatuses() == null || pod.getStatus().getContainerStatuses().isEmpty()) {
            return Future.succeededFuture(null);
        }
        return observe(pod).compose(observed -> readEnvs(pod, observed)).compose(observed -> {
            ContainerMetaPlanner.Plan plan = ContainerMetaPlanner.plan(pod, observed, envGate);
            for (String id : plan.restart()) {
                scheduleRestart(pod, id);
            }
            Future<Void> write = plan.changed() ? write(pod, plan.metaSet().toJson()) : Future.succeededFuture();
            return write.map(v -> plan.retry() ? ENV_RETRY : null);
        });
    }

    /** The runtime's view of each container the pod status names (absent when the runtime does not know it). */
    private Future<Map<String, ContainerMetaPlanner.Observed>> observe(Pod pod) {
        Map<String, ContainerMetaPlanner.Observed> seen = new LinkedHashMap<>();
        List<Future<Void>> lookups = new ArrayList<>();
        for (io.fabric8.kubernetes.api.model.ContainerStatus cs : pod.getStatus().getContainerStatuses()) {
            String id = cs.getContainerID();
            if (id == null || id.isEmpty()) {
                continue;
            }
            lookups.add(cri.containerStatus(ObservedContainer.runtimeId(id))
                    .map(rt -> {
                        seen.put(cs.getName(), new ContainerMetaPlanner.Observed(id,
                                rt.getState() == ContainerState.CONTAINER_RUNNING, plainHash(rt), null));
                        return (Void) null;
                    })
                    .recover(err -> err instanceof CriException ce && ce.isNotFound()
                            ? Future.succeededFuture() : Future.failedFuture(err)));
        }
        return Future.all(lookups).map(v -> seen);
    }

    /** Runs {@code env} in the containers whose env hash is still unknown; a failed read leaves env null. */
    private Future<Map<String, ContainerMetaPlanner.Observed>> readEnvs(Pod pod,
                                                                        Map<String, ContainerMetaPlanner.Observed> seen) {
        List<Future<Void>> reads = new ArrayList<>();
        for (String name : ContainerMetaPlanner.needEnv(pod, seen, envGate)) {
            ContainerMetaPlanner.Observed o = seen.get(name);
            reads.add(cri.execSync(ObservedContainer.runtimeId(o.containerId()), List.of("env"), ENV_READ_TIMEOUT)
                    .map(r -> {
                        if (r.getExitCode() == 0) {
                            seen.put(name, new ContainerMetaPlanner.Observed(o.containerId(), o.running(),
                                    o.plainHash(), EnvFromMetadataHash.parseEnvOutput(
                                            r.getStdout().toString(StandardCharsets.UTF_8))));
                        } else {
                            LOG.warn("reading env of container {} of pod {}: exit code {}", name, key(pod),
                                    r.getExitCode());
                        }
                        return (Void) null;
                    })
                    .recover(err -> {
                        LOG.warn("reading env of container {} of pod {}: {}", name, key(pod), err.getMessage());
                        return Future.succeededFuture();
                    }));
        }
        return Future.all(reads).map(v -> seen);
    }

    private static long plainHash(ContainerStatus rt) {
        String hex = rt.getAnnotationsMap().get(KUBELET_HASH_ANNOTATION);
        if (hex == null || hex.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseUnsignedLong(hex, 16);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private Future<Void> write(Pod pod, String metaJson) {
        String uid = pod.getMetadata().getUid();
        if (metaJson.equals(written.get(uid))) {
            return Future.succeededFuture();
        }
        Duration wait = writes.when(uid);
        Future<Void> waited = wait.isZero() ? Future.succeededFuture()
                : Future.future(p -> vertx.setTimer(Math.max(1, wait.toMillis()), t -> p.complete()));
        String namespace = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        String body = ApiJson.toJson(Map.of("metadata", Map.of("annotations",
                Map.of(WellKnown.RUNTIME_CONTAINERS_META_ANNOTATION, metaJson))));
        return waited.compose(v -> vertx.<Void>executeBlocking(() -> {
            try {
                kube.pods().inNamespace(namespace).withName(name).subresource("status")
                        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), body);
            } catch (KubernetesClientException e) {
                if (!ApiErrors.isNotFound(e)) {
                    throw e;
                }
            }
            return null;
        })).compose(v -> {
            context.runOnContext(x -> written.put(uid, metaJson));
            LOG.info("reported container meta of pod {}/{}", namespace, name);
            return Future.<Void>succeededFuture();
        });
    }

    private void scheduleRestart(Pod pod, String containerId) {
        if (!restartsPending.add(containerId)) {
            return;
        }
        long grace = pod.getSpec().getTerminationGracePeriodSeconds() == null ? DEFAULT_GRACE_SECONDS
                : pod.getSpec().getTerminationGracePeriodSeconds();
        Duration delay = restarts.when(containerId);
        String podKey = key(pod);
        vertx.setTimer(Math.max(1, delay.toMillis()), t -> context.runOnContext(v -> restart(podKey, containerId,
                Duration.ofSeconds(grace))));
    }

    /** Stops the container if it still runs; the kubelet starts it again with the pod's current values. */
    private void restart(String podKey, String containerId, Duration grace) {
        if (stopped) {
            restartsPending.remove(containerId);
            return;
        }
        String runtimeId = ObservedContainer.runtimeId(containerId);
        cri.containerStatus(runtimeId)
                .compose(rt -> {
                    if (rt.getState() != ContainerState.CONTAINER_RUNNING) {
                        return Future.succeededFuture(false);
                    }
                    LOG.info("restarting container {} of pod {}: its env from metadata changed during an in-place update",
                            runtimeId, podKey);
                    return cri.stopContainer(runtimeId, grace).map(true);
                })
                .onComplete(ar -> context.runOnContext(v -> {
                    restartsPending.remove(containerId);
                    if (ar.succeeded() || (ar.cause() instanceof CriException ce && ce.isNotFound())) {
                        // That container id is gone for good: its back-off entry is no longer needed.
                        restarts.forget(containerId);
                        return;
                    }
                    LOG.warn("restarting container {} of pod {} failed: {}", runtimeId, podKey, ar.cause().getMessage());
                    // Still inconsistent: the next sync of the pod schedules it again, after the back-off.
                    enqueue(podKey);
                }));
    }
}
