package dev.kruisevertx.agent.crr;

import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.agent.cri.CriClient;
import dev.kruisevertx.agent.cri.CriException;
import dev.kruisevertx.cache.InformerHandlers;
import dev.kruisevertx.cri.v1.ContainerState;
import dev.kruisevertx.cri.v1.ContainerStatus;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainer;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainerRecreateState;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The agent side of ContainerRecreateRequest. It watches only this node's active requests (labels
 * {@code crr.apps.kruise.io/node-name=<node>} and {@code crr.apps.kruise.io/active=true}), works per pod (one request
 * at a time, see {@link RequestPicker}), decides each step with {@link RecreatePlanner} from the pod's status and the
 * runtime's view of its containers, carries it out through the CRI ({@link ContainerStopper}) and writes the status
 * with JSON merge patches to the status subresource.
 *
 * <p>Every step for one pod runs alone; events arriving meanwhile run it once more afterwards. While a request is
 * in progress the pod is looked at again every {@code pollInterval}, because the new container's start shows in the
 * pod and the runtime, not in the request.
 */
public final class CrrAgent {
    private static final Logger LOG = LoggerFactory.getLogger(CrrAgent.class);
    public static final Duration DEFAULT_POLL = Duration.ofSeconds(2);
    private static final Duration MAX_RETRY = Duration.ofSeconds(30);

    private final Vertx vertx;
    private final KubernetesClient kube;
    private final CriClient cri;
    private final String nodeName;
    private final Duration pollInterval;
    private final ContainerStopper stopper;
    private final Set<String> running = new HashSet<>();
    private final Set<String> dirty = new HashSet<>();
    private final Map<String, Integer> failures = new HashMap<>();
    private Context context;
    private SharedIndexInformer<ContainerRecreateRequest> informer;
    private volatile boolean stopped;

    public CrrAgent(Vertx vertx, KubernetesClient kube, CriClient cri, String nodeName, Duration pollInterval) {
        this.vertx = vertx;
        this.kube = kube;
        this.cri = cri;
        this.nodeName = nodeName;
        this.pollInterval = pollInterval;
        this.stopper = new ContainerStopper(vertx, cri);
    }

    /** Starts watching; completes once the first list of this node's requests is in. */
    public Future<Void> start() {
        context = vertx.getOrCreateContext();
        Future<Void> started = vertx.executeBlocking(() -> {
            // Assigned before it starts: the first events arrive while the initial list is still being read.
            informer = kube.resources(ContainerRecreateRequest.class).inAnyNamespace()
                    .withLabel(WellKnown.CRR_NODE_NAME_LABEL, nodeName)
                    .withLabel(WellKnown.CRR_ACTIVE_LABEL, "true")
                    .runnableInformer(0);
            informer.addEventHandler(InformerHandlers.anyEvent(this::enqueueFromWatch));
            try {
                informer.run();
            } catch (RuntimeException e) {
                // A failed first list leaves nothing running; start() may be called again.
                informer.close();
                throw e;
            }
            return null;
        });
        return started.onSuccess(v -> LOG.info("watching ContainerRecreateRequests of node {}", nodeName));
    }

    public Future<Void> stop() {
        stopped = true;
        Future<Void> watch = informer == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
            informer.close();
            return null;
        });
        return Future.join(watch, stopper.close()).mapEmpty();
    }

    private void enqueueFromWatch(ContainerRecreateRequest crr) {
        String key = crr.getMetadata().getNamespace() + "/" + crr.spec().getPodName();
        // Informer callbacks run on the client's thread: hop to this agent's context, where all state lives.
        context.runOnContext(v -> enqueue(key));
    }

    private void enqueue(String podKey) {
        if (stopped) {
            return;
        }
        if (running.contains(podKey)) {
            dirty.add(podKey);
            return;
        }
        // During the first list the store fills one object at a time: picking "the oldest request of a pod"
        // before it holds them all could start a younger one. Act only on a synced cache.
        if (!informer.hasSynced()) {
            vertx.setTimer(100, t -> context.runOnContext(v -> enqueue(podKey)));
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
                recheck = Duration.ofMillis(Math.min(MAX_RETRY.toMillis(), 500L << Math.min(n, 6)));
                LOG.warn("ContainerRecreateRequest step for pod {} failed (retry in {} ms): {}", podKey,
                        recheck.toMillis(), ar.cause().toString());
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

    /** One step for one pod; the result is when to look again without an event (null: only on events). */
    private Future<Duration> sync(String podKey) {
        int slash = podKey.indexOf('/');
        String namespace = podKey.substring(0, slash);
        String podName = podKey.substring(slash + 1);
        List<ContainerRecreateRequest> ofPod = new ArrayList<>();
        for (ContainerRecreateRequest crr : informer.getStore().list()) {
            if (namespace.equals(crr.getMetadata().getNamespace()) && podName.equals(crr.spec().getPodName())) {
                ofPod.add(crr);
            }
        }
        RequestPicker.Picked picked = RequestPicker.pick(ofPod);
        List<Future<Void>> pending = new ArrayList<>();
        for (ContainerRecreateRequest queued : picked.toPending()) {
            pending.add(patchStatus(queued, Map.of("phase", ContainerRecreateRequestPhase.PENDING.value())));
        }
        ContainerRecreateRequest crr = picked.running();
        if (crr == null) {
            return Future.all(pending).map((Duration) null);
        }
        return Future.all(pending).compose(v -> observe(crr)).compose(seen -> act(crr, seen));
    }

    private Future<Duration> act(ContainerRecreateRequest crr, Observation seen) {
        RecreatePlan plan = RecreatePlanner.plan(crr, seen.containers(), Instant.now());
        LOG.debug("CRR {}/{}: {}", crr.getMetadata().getNamespace(), crr.getMetadata().getName(), plan);
        switch (plan.action()) {
            case START:
                return patchStatus(crr, Map.of("phase", ContainerRecreateRequestPhase.RECREATING.value())).map(poll());
            case WAIT_UNREADY:
                return Future.succeededFuture(plan.recheckIn());
            case PATCH_STATES:
                return patchStatus(crr, Map.of("containerRecreateStates", plan.states())).map(poll());
            case KILL:
                return kill(crr, plan, seen).map(poll());
            case COMPLETE:
                Map<String, Object> done = new LinkedHashMap<>();
                done.put("phase", ContainerRecreateRequestPhase.COMPLETED.value());
                done.put("completionTime", Pods.formatTime(Instant.now()));
                done.put("message", plan.message());
                return patchStatus(crr, done).map((Duration) null);
            case WAIT:
            default:
                Duration recheck = plan.recheckIn();
                return Future.succeededFuture(recheck == null || recheck.compareTo(pollInterval) > 0
                        ? pollInterval : recheck);
        }
    }

    private Duration poll() {
        return pollInterval;
    }

    private Future<Void> kill(ContainerRecreateRequest crr, RecreatePlan plan, Observation seen) {
        ContainerRecreateRequestContainer spec = crr.spec().getContainers().stream()
                .filter(c -> plan.container().equals(c.getName())).findFirst().orElseThrow();
        ObservedContainer target = seen.containers().get(plan.container());
        Long graceSeconds = crr.strategy().getTerminationGracePeriodSeconds();
        Duration grace = Duration.ofSeconds(graceSeconds == null ? ContainerStopper.DEFAULT_GRACE_SECONDS : graceSeconds);
        String runtimeId = ObservedContainer.runtimeId(target.containerId());
        LOG.info("Stopping container {} ({}) of pod {}/{} by ContainerRecreateRequest {}", spec.getName(), runtimeId,
                crr.getMetadata().getNamespace(), crr.spec().getPodName(), crr.getMetadata().getName());
        return stopper.stop(spec, runtimeId, grace, seen.podIp())
                .transform(ar -> {
                    List<ContainerRecreateRequestContainerRecreateState> states = plan.states();
                    if (ar.failed()) {
                        LOG.warn("failed to stop container {} of pod {}/{}: {}", spec.getName(),
                                crr.getMetadata().getNamespace(), crr.spec().getPodName(), ar.cause().getMessage());
                        for (ContainerRecreateRequestContainerRecreateState s : states) {
                            if (s.getName().equals(spec.getName())) {
                                s.setPhase(ContainerRecreateRequestPhase.FAILED.value());
                                s.setMessage("kill container error: " + ar.cause().getMessage());
                            }
                        }
                    }
                    return patchStatus(crr, Map.of("containerRecreateStates", states));
                });
    }

    /** What the agent sees of the pod's containers named in the request. */
    record Observation(Map<String, ObservedContainer> containers, String podIp) {
    }

    private Future<Observation> observe(ContainerRecreateRequest crr) {
        String namespace = crr.getMetadata().getNamespace();
        return vertx.executeBlocking(() -> kube.pods().inNamespace(namespace).withName(crr.spec().getPodName()).get())
                .compose(pod -> {
                    Map<String, ObservedContainer> seen = new LinkedHashMap<>();
                    if (pod == null || !uidMatches(crr, pod)) {
                        return Future.succeededFuture(new Observation(seen, null));
                    }
                    List<Future<Void>> lookups = new ArrayList<>();
                    for (ContainerRecreateRequestContainer c : crr.spec().getContainers()) {
                        Pods.containerStatus(pod, c.getName()).ifPresent(status -> {
                            String id = status.getContainerID();
                            if (id == null || id.isEmpty()) {
                                return;
                            }
                            int restarts = status.getRestartCount() == null ? 0 : status.getRestartCount();
                            boolean ready = Boolean.TRUE.equals(status.getReady());
                            lookups.add(cri.containerStatus(ObservedContainer.runtimeId(id))
                                    .map(rt -> {
                                        seen.put(c.getName(), new ObservedContainer(id, restarts, ready,
                                                state(rt), startedAt(rt)));
                                        return (Void) null;
                                    })
                                    .recover(err -> err instanceof CriException ce && ce.isNotFound()
                                            ? Future.succeededFuture() : Future.failedFuture(err)));
                        });
                    }
                    String podIp = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
                    return Future.all(lookups).map(v -> new Observation(ordered(crr, seen), podIp));
                });
    }

    private static Map<String, ObservedContainer> ordered(ContainerRecreateRequest crr, Map<String, ObservedContainer> seen) {
        Map<String, ObservedContainer> out = new LinkedHashMap<>();
        for (ContainerRecreateRequestContainer c : crr.spec().getContainers()) {
            if (seen.containsKey(c.getName())) {
                out.put(c.getName(), seen.get(c.getName()));
            }
        }
        return out;
    }

    private static boolean uidMatches(ContainerRecreateRequest crr, Pod pod) {
        String uid = Pods.labels(crr).get(WellKnown.CRR_POD_UID_LABEL);
        return uid == null || uid.isEmpty() || uid.equals(pod.getMetadata().getUid());
    }

    private static ObservedContainer.RuntimeState state(ContainerStatus status) {
        ContainerState s = status.getState();
        return switch (s) {
            case CONTAINER_CREATED -> ObservedContainer.RuntimeState.CREATED;
            case CONTAINER_RUNNING -> ObservedContainer.RuntimeState.RUNNING;
            case CONTAINER_EXITED -> ObservedContainer.RuntimeState.EXITED;
            default -> ObservedContainer.RuntimeState.UNKNOWN;
        };
    }

    private static Instant startedAt(ContainerStatus status) {
        long nanos = status.getStartedAt();
        return nanos <= 0 ? null : Instant.ofEpochSecond(0, nanos);
    }

    private Future<Void> patchStatus(ContainerRecreateRequest crr, Map<String, Object> status) {
        String body = ApiJson.toJson(Map.of("status", status));
        String namespace = crr.getMetadata().getNamespace();
        String name = crr.getMetadata().getName();
        return vertx.executeBlocking(() -> {
            try {
                kube.resources(ContainerRecreateRequest.class).inNamespace(namespace).withName(name)
                        .subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), body);
            } catch (KubernetesClientException e) {
                if (!ApiErrors.isNotFound(e)) {
                    throw e;
                }
                // Deleted meanwhile: nothing left to report on.
            }
            return null;
        });
    }
}
