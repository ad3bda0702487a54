package dev.kruisevertx.agent.podprobe;

import dev.kruisevertx.agent.cri.CriClient;
import dev.kruisevertx.api.apps.v1alpha1.ContainerProbe;
import dev.kruisevertx.api.apps.v1alpha1.ContainerProbeState;
import dev.kruisevertx.api.apps.v1alpha1.NodePodProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeStatus;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.cache.InformerHandlers;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The node agent's prober (OpenKruise's daemon podprobe controller): watches this node's NodePodProbe, runs one
 * periodic worker per pod probe ({@link ProbeRunner}, thresholds by {@link ProbeTracker}), and writes
 * {@code status.podProbeStatuses} when a reported state or message changes. All state lives on one Vert.x context;
 * the API calls run on worker threads. A probe whose spec changes gets a new worker (and a fresh state).
 */
public final class PodProbeAgent {
    private static final Logger LOG = LoggerFactory.getLogger(PodProbeAgent.class);

    private final Vertx vertx;
    private final KubernetesClient kube;
    private final String nodeName;
    private final ProbeRunner runner;
    private final Map<String, Worker> workers = new LinkedHashMap<>();
    private Context context;
    private SharedIndexInformer<NodePodProbe> informer;
    private volatile boolean stopped;
    private boolean writing;
    private boolean writeAgain;
    private boolean firstSyncDone;

    /** One probe of one pod. */
    private final class Worker {
        final PodProbe pod;
        final ContainerProbe probe;
        final ProbeTracker tracker;
        long timer = -1;
        boolean inFlight;

        Worker(PodProbe pod, ContainerProbe probe) {
            this.pod = pod;
            this.probe = probe;
            Probe p = probe.getProbe();
            this.tracker = new ProbeTracker(p.getSuccessThreshold(), p.getFailureThreshold());
        }

        void start() {
            Probe p = probe.getProbe();
            long delay = Math.max(1, p.getInitialDelaySeconds() == null ? 0 : p.getInitialDelaySeconds());
            long period = Math.max(1, p.getPeriodSeconds() == null ? 0 : p.getPeriodSeconds());
            timer = vertx.setTimer(delay * 1000, t -> context.runOnContext(v -> {
                if (timer < 0) {
                    return;
                }
                tick();
                timer = vertx.setPeriodic(period * 1000, id -> context.runOnContext(x -> tick()));
            }));
        }

        void tick() {
            if (inFlight || stopped || timer < 0) {
                return;
            }
            inFlight = true;
            runner.run(probe.getProbe(), pod.getUid(), probe.getContainerName(), pod.getIp())
                    .onComplete(ar -> context.runOnContext(v -> {
                        inFlight = false;
                        if (timer < 0 || ar.failed() || ar.result().isEmpty()) {
                            return;
                        }
                        if (tracker.record(ar.result().get(), Instant.now())) {
                            writeStatus();
                        }
                    }));
        }

        void stop() {
            if (timer >= 0) {
                vertx.cancelTimer(timer);
            }
            timer = -1;
        }
    }

    public PodProbeAgent(Vertx vertx, KubernetesClient kube, CriClient cri, String nodeName) {
        this.vertx = vertx;
        this.kube = kube;
        this.nodeName = nodeName;
        this.runner = new ProbeRunner(vertx, cri);
    }

    /** Starts watching this node's NodePodProbe; completes once the first list is in. */
    public Future<Void> start() {
        context = vertx.getOrCreateContext();
        return vertx.<Void>executeBlocking(() -> {
            informer = kube.resources(NodePodProbe.class).withName(nodeName).runnableInformer(0);
            informer.addEventHandler(InformerHandlers.anyEvent(npp -> context.runOnContext(v -> sync())));
            try {
                informer.run();
            } catch (RuntimeException e) {
                informer.close();
                throw e;
            }
            return null;
        }, false).onSuccess(v -> {
            LOG.info("watching the NodePodProbe of node {}", nodeName);
            context.runOnContext(x -> sync());
        });
    }

    public Future<Void> stop() {
        stopped = true;
        Future<Void> stoppedWorkers = context == null ? Future.succeededFuture() : Future.future(p ->
                context.runOnContext(v -> {
                    workers.values().forEach(Worker::stop);
                    workers.clear();
                    p.complete();
                }));
        // Unordered: a start still blocked in its first list (API server unreachable) must not hold the stop.
        return stoppedWorkers.compose(v -> vertx.executeBlocking(() -> {
            if (informer != null) {
                informer.close();
            }
            runner.close();
            return null;
        }, false));
    }

    /** Number of running probe workers (for tests and metrics). */
    public Future<Integer> workerCount() {
        return Future.future(p -> context.runOnContext(v -> p.complete(workers.size())));
    }

    private NodePodProbe current() {
        return informer == null ? null : informer.getStore().getByKey(nodeName);
    }

    /** Starts workers for new probes, stops those gone or changed. */
    private void sync() {
        if (stopped) {
            return;
        }
        NodePodProbe npp = current();
        Map<String, Worker> wanted = new LinkedHashMap<>();
        boolean dropped = false;
        if (npp != null) {
            for (PodProbe pod : npp.podProbes()) {
                for (ContainerProbe probe : pod.getProbes() == null ? List.<ContainerProbe>of() : pod.getProbes()) {
                    if (probe.getProbe() == null || probe.getName() == null) {
                        continue;
                    }
                    String key = pod.getUid() + "/" + probe.getName();
                    Worker existing = workers.get(key);
                    if (existing != null && Objects.equals(existing.probe, probe)
                            && Objects.equals(existing.pod.getIp(), pod.getIp())) {
                        wanted.put(key, existing);
                    } else {
                        Worker w = new Worker(pod, probe);
                        wanted.put(key, w);
                    }
                }
            }
        }
        for (Map.Entry<String, Worker> e : workers.entrySet()) {
            if (wanted.get(e.getKey()) != e.getValue()) {
                e.getValue().stop();
                dropped = true;
            }
        }
        for (Map.Entry<String, Worker> e : wanted.entrySet()) {
            if (workers.get(e.getKey()) != e.getValue()) {
                e.getValue().start();
            }
        }
        workers.clear();
        workers.putAll(wanted);
        // Statuses of probes no longer run go away with them; after a restart, results of the previous run that this
        // one has not confirmed yet are cleared once (compared only then, so our own writes never loop).
        boolean stale = !firstSyncDone && npp != null && !npp.podProbeStatuses().isEmpty() && !statusesMatch(npp);
        if (npp != null) {
            firstSyncDone = true;
        }
        if (dropped || stale) {
            writeStatus();
        }
    }

    private boolean statusesMatch(NodePodProbe npp) {
        return Objects.equals(ApiJson.toJson(statuses()), ApiJson.toJson(npp.podProbeStatuses()));
    }

    /** The statuses to report: for each pod, the probes that have reached a state. */
    List<PodProbeStatus> statuses() {
        Map<String, PodProbeStatus> byPod = new LinkedHashMap<>();
        for (Worker w : workers.values()) {
            if (w.tracker.state() == null) {
                continue;
            }
            PodProbeStatus status = byPod.computeIfAbsent(w.pod.getUid(), uid -> {
                PodProbeStatus s = new PodProbeStatus();
                s.setName(w.pod.getName());
                s.setNamespace(w.pod.getNamespace());
                s.setUid(uid);
                s.setProbeStates(new ArrayList<>());
                return s;
            });
            ContainerProbeState state = new ContainerProbeState();
            state.setName(w.probe.getName());
            state.setState(w.tracker.state().value());
            state.setMessage(w.tracker.message().isEmpty() ? null : w.tracker.message());
            state.setLastProbeTime(Pods.formatTime(w.tracker.lastProbeTime()));
            state.setLastTransitionTime(Pods.formatTime(w.tracker.lastTransitionTime()));
            status.getProbeStates().add(state);
        }
        return new ArrayList<>(byPod.values());
    }

    /** Writes the statuses; one write at a time, a change meanwhile writes once more afterwards. */
    private void writeStatus() {
        if (stopped) {
            return;
        }
        if (writing) {
            writeAgain = true;
            return;
        }
        writing = true;
        List<PodProbeStatus> statuses = statuses();
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("podProbeStatuses", statuses.isEmpty() ? null : statuses);
        String body = ApiJson.toJson(Map.of("status", status));
        vertx.executeBlocking(() -> {
            ApiErrors.ignoreNotFound(() -> kube.resources(NodePodProbe.class).withName(nodeName)
                    .subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), body));
            return null;
        }, false).onComplete(ar -> context.runOnContext(v -> {
            writing = false;
            if (ar.failed()) {
                LOG.warn("writing the NodePodProbe status of node {} failed: {}", nodeName, ar.cause().getMessage());
                vertx.setTimer(1000, t -> context.runOnContext(x -> writeStatus()));
            } else if (writeAgain) {
                writeAgain = false;
                writeStatus();
            }
        }));
    }
}
