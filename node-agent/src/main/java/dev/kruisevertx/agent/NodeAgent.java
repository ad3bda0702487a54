package dev.kruisevertx.agent;

import dev.kruisevertx.agent.cri.Backoff;
import dev.kruisevertx.cli.ListenError;
import dev.kruisevertx.agent.cri.CriClient;
import dev.kruisevertx.agent.crr.CrrAgent;
import dev.kruisevertx.agent.cri.CriException;
import dev.kruisevertx.agent.cri.DiscoveredRuntime;
import dev.kruisevertx.agent.cri.GrpcCriClient;
import dev.kruisevertx.agent.cri.RuntimeDiscovery;
import dev.kruisevertx.kube.KubeClients;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The node agent process: one Vert.x instance, the HTTP endpoints ({@code /healthz}, {@code /metrics}),
 * the API client and the container runtime connection. The runtime is found in the background and
 * retried with back-off for as long as the agent runs, so a runtime that starts after the agent, or
 * restarts, never stops it.
 */
public final class NodeAgent {
    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

    private final AgentOptions options;
    private final Backoff runtimeBackoff;
    private final Promise<CriClient> runtime = Promise.promise();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private Vertx vertx;
    private PrometheusMeterRegistry registry;
    private HttpServer http;
    private KubernetesClient kube;
    private JvmGcMetrics gcMetrics;
    private volatile CrrAgent crr;
    private volatile dev.kruisevertx.agent.podprobe.PodProbeAgent prober;
    private volatile dev.kruisevertx.agent.containermeta.ContainerMetaAgent containerMeta;
    private volatile dev.kruisevertx.agent.imagepuller.ImagePullerAgent imagePuller;

    public NodeAgent(AgentOptions options) {
        this(options, Backoff.DEFAULT);
    }

    public NodeAgent(AgentOptions options, Backoff runtimeBackoff) {
        this.options = options;
        this.runtimeBackoff = runtimeBackoff;
    }

    /**
     * Starts the HTTP endpoints and the API client, then looks for the runtime in the background. Fails
     * (after releasing what it started) only for problems retrying cannot fix, each an
     * {@link dev.kruisevertx.cli.InvalidConfigurationException} naming the setting: the --addr port is taken, the
     * --kubeconfig file is missing, empty or incomplete.
     */
    public Future<Void> start() {
        vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        if (!vertx.isNativeTransportEnabled()) {
            LOG.warn("Vert.x native transport unavailable ({}); the CRI unix socket cannot be reached",
                    String.valueOf(vertx.unavailableNativeTransportCause()));
        }
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        gcMetrics = new JvmGcMetrics();
        gcMetrics.bindTo(registry);
        Gauge.builder("kruise.agent.runtime.ready", runtime, p -> p.future().succeeded() ? 1 : 0)
                .description("1 once the container runtime answered")
                .register(registry);

        LOG.info("node agent starting for node {} (feature gates '{}')", options.nodeName(), options.featureGates());
        if (!options.ignored().isEmpty()) {
            LOG.info("accepted but not used: {}", options.ignored());
        }
        // Contextless promise: its listeners run even when the failure path has closed Vert.x.
        Promise<Void> started = Promise.promise();
        startHttp()
                .compose(v -> vertx.executeBlocking(this::createKubeClient))
                .onSuccess(client -> {
                    kube = client;
                    LOG.info("node agent ready: /metrics and /healthz on port {}; API server {}", port(),
                            client.getMasterUrl());
                    findRuntime();
                    started.complete();
                })
                .onFailure(err -> stop().onComplete(ignored -> started.fail(err)));
        return started.future();
    }

    private Future<Void> startHttp() {
        Router router = Router.router(vertx);
        router.get("/healthz").handler(ctx -> ctx.response().putHeader("content-type", "text/plain").end("ok"));
        router.get("/metrics").handler(ctx -> ctx.response()
                .putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8")
                .end(registry.scrape()));
        String host = options.addrHost().isEmpty() ? "0.0.0.0" : options.addrHost();
        return vertx.createHttpServer()
                .requestHandler(router)
                .listen(options.addrPort(), host)
                .recover(err -> Future.failedFuture(ListenError.explain("--addr " + addrSetting(), err)))
                .onSuccess(server -> http = server)
                .mapEmpty();
    }

    /** --addr as the operator wrote it (an IPv6 host back in brackets). */
    private String addrSetting() {
        String host = options.addrHost();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + options.addrPort();
    }

    /** A missing, empty or incomplete --kubeconfig fails here with what is wrong with the file. */
    private KubernetesClient createKubeClient() {
        return KubeClients.create(options.kubeconfig(), options.restConfigQps(), options.restConfigBurst());
    }

    private void findRuntime() {
        RuntimeDiscovery discovery = new RuntimeDiscovery(vertx, options.runtimeRoot(), PROBE_TIMEOUT);
        String where = options.runtimeEndpoint() != null ? options.runtimeEndpoint() : "under " + options.runtimeRoot();
        runtimeBackoff.retry(vertx, "finding the container runtime " + where,
                        () -> discovery.discover(options.runtimeEndpoint()),
                        err -> !stopping.get() && CriException.retryable(err), 0)
                .onSuccess(this::useRuntime)
                .onFailure(err -> {
                    if (!stopping.get()) {
                        LOG.error("giving up on the container runtime: {}", err.getMessage());
                    }
                });
    }

    private void useRuntime(DiscoveredRuntime found) {
        if (stopping.get()) {
            return;
        }
        LOG.info("container runtime: {}", found);
        GrpcCriClient cri = new GrpcCriClient(vertx, found.endpoint(), GrpcCriClient.DEFAULT_CALL_TIMEOUT, registry);
        if (runtime.tryComplete(cri)) {
            startJobs(cri);
        }
    }

    /** The jobs that need the runtime: container recreation, container meta (gate DaemonWatchingPod). */
    private void startJobs(CriClient cri) {
        dev.kruisevertx.features.FeatureGates gates;
        try {
            gates = dev.kruisevertx.features.FeatureGates.parse(options.featureGates(), System.getenv());
        } catch (IllegalArgumentException e) {
            LOG.error("--feature-gates not understood, using the defaults: {}", e.getMessage());
            gates = dev.kruisevertx.features.FeatureGates.defaults();
        }
        if (gates.enabled(dev.kruisevertx.features.Feature.DaemonWatchingPod)) {
            containerMeta = new dev.kruisevertx.agent.containermeta.ContainerMetaAgent(vertx, kube, cri,
                    options.nodeName(), gates.enabled(dev.kruisevertx.features.Feature.InPlaceUpdateEnvFromMetadata));
            runtimeBackoff.retry(vertx, "watching the node's pods", containerMeta::start, err -> !stopping.get(), 0)
                    .onFailure(err -> {
                        if (!stopping.get()) {
                            LOG.error("cannot watch the node's pods: {}", err.getMessage());
                        }
                    });
        }
        crr = new CrrAgent(vertx, kube, cri, options.nodeName(), CrrAgent.DEFAULT_POLL);
        // The CRD may be installed after the agent starts: keep trying, as for the runtime.
        runtimeBackoff.retry(vertx, "watching ContainerRecreateRequests", crr::start, err -> !stopping.get(), 0)
                .onFailure(err -> {
                    if (!stopping.get()) {
                        LOG.error("cannot watch ContainerRecreateRequests: {}", err.getMessage());
                    }
                });
        // PodProbeMarker's prober (gate PodProbeMarkerGate in OpenKruise's daemon; the NodePodProbe is empty unless the
        // manager runs with the gate on).
        prober = new dev.kruisevertx.agent.podprobe.PodProbeAgent(vertx, kube, cri, options.nodeName());
        runtimeBackoff.retry(vertx, "watching the NodePodProbe", prober::start, err -> !stopping.get(), 0)
                .onFailure(err -> {
                    if (!stopping.get()) {
                        LOG.error("cannot watch the NodePodProbe: {}", err.getMessage());
                    }
                });
        // The image puller runs whatever the gates, as kruise-daemon's: the NodeImage stays empty unless the manager
        // (or someone) asks for images.
        imagePuller = new dev.kruisevertx.agent.imagepuller.ImagePullerAgent(vertx, kube, cri, options.nodeName(),
                options.maxWorkersForPullImage());
        runtimeBackoff.retry(vertx, "watching the NodeImage", imagePuller::start, err -> !stopping.get(), 0)
                .onFailure(err -> {
                    if (!stopping.get()) {
                        LOG.error("cannot watch the NodeImage: {}", err.getMessage());
                    }
                });
    }

    /** Completes once the runtime answered; the agent's jobs start from here. */
    public Future<CriClient> runtime() {
        return runtime.future();
    }

    public boolean runtimeReady() {
        return runtime.future().succeeded();
    }

    /** The API client, once {@link #start()} succeeded. */
    public KubernetesClient kube() {
        return kube;
    }

    public Vertx vertx() {
        return vertx;
    }

    /** The port /metrics and /healthz listen on (useful with {@code --addr :0}). */
    public int port() {
        return http == null ? -1 : http.actualPort();
    }

    /** Stops everything; safe to call more than once and after a failed start. */
    public Future<Void> stop() {
        if (!stopping.compareAndSet(false, true) || vertx == null) {
            return Future.succeededFuture();
        }
        LOG.info("node agent stopping");
        Future<Void> jobs = Future.join(crr == null ? Future.succeededFuture() : crr.stop(),
                prober == null ? Future.succeededFuture() : prober.stop(),
                containerMeta == null ? Future.succeededFuture() : containerMeta.stop(),
                imagePuller == null ? Future.succeededFuture() : imagePuller.stop()).mapEmpty();
        Future<Void> cri = jobs.transform(ignored -> runtime.future().succeeded()
                ? runtime.future().result().close() : Future.succeededFuture());
        runtime.tryFail("node agent stopped");
        Future<Void> server = http == null ? Future.succeededFuture() : http.close();
        Future<Void> client = kube == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
            kube.close();
            return null;
        });
        Promise<Void> stopped = Promise.promise();
        Future.join(cri, server, client).onComplete(ignored -> {
            if (gcMetrics != null) {
                gcMetrics.close();
            }
            registry.close();
            // Closed from a thread of its own: a close started on one of Vert.x's event loops would
            // report its completion to that (by then stopped) loop, and nobody would hear it.
            Thread closer = new Thread(() -> vertx.close().onComplete(ar -> {
                LOG.info("node agent stopped");
                stopped.complete();
            }), "node-agent-close");
            closer.start();
        });
        return stopped.future();
    }
}
