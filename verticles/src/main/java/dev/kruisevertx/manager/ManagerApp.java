package dev.kruisevertx.manager;

import dev.kruisevertx.bus.InstrumentedVertx;
import dev.kruisevertx.cache.CacheEventBus;
import dev.kruisevertx.cache.ShardCacheScope;
import dev.kruisevertx.cache.WatchCache;
import dev.kruisevertx.cache.WatchCacheOptions;
import dev.kruisevertx.cli.InvalidConfigurationException;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.controller.PlanRecorder;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.inplace.RevisionLabels;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.kube.KubeExecutor;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.pub.PubGuard;
import dev.kruisevertx.pub.PubStatusStore;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.WebhookDependencies;
import dev.kruisevertx.webhook.deletionprotection.ClusterDeletionLookup;
import dev.kruisevertx.webhook.workloadspread.ClientWorkloadSpreadStore;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadLookup;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadPodAdmission;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadPodRecorder;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import dev.kruisevertx.workloadspread.PodVersions;
import dev.kruisevertx.webhook.sidecarset.CachedSidecarSetLookup;
import dev.kruisevertx.webhook.WebhookVerticle;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.Set;
import dev.kruisevertx.controller.Shards;

/**
 * The running manager: one Vert.x instance, one shared watch cache, the HTTP endpoints, leader election and the
 * controller verticles. Start-up order follows OpenKruise's: cache and indexes, endpoints, then controllers once
 * this replica leads.
 */
public final class ManagerApp {
    private static final Logger LOG = LoggerFactory.getLogger(ManagerApp.class);

    private final ManagerConfig config;
    private final KubernetesClient client;
    private final Vertx vertx;
    private final PrometheusMeterRegistry registry;
    private final WatchCache cache;
    private final KubeExecutor kube;
    /** The webhook's own calls (PUB status writes, Events): every replica serves them, so no leader fence. */
    private final KubeExecutor webhookKube;
    private final ControllerSupervisor supervisor;
    private final HttpEndpoints endpoints;
    private final LeaderElection election;
    /** With --shards N > 1: the per-shard election (then {@link #election} is null). */
    private final ShardElection shardElection;
    private final Shards shards;
    /** With --shards N > 1: the kinds this replica caches only for its shards (pods); else null. */
    private final ShardCacheScope shardCache;
    private final WebhookVerticle webhook;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final MetricsAccessReview metricsAccess;
    /** The WorkloadSpread_Watch_Custom_Workload_WhiteList entry of kruise-configuration, read at start-up, then watched. */
    private final java.util.concurrent.atomic.AtomicReference<String> workloadSpreadWhiteList =
            new java.util.concurrent.atomic.AtomicReference<>();
    /** Keeps {@link #workloadSpreadWhiteList} current (one ConfigMap, by name); stopped on close. */
    private volatile io.fabric8.kubernetes.client.informers.SharedIndexInformer<ConfigMap> workloadSpreadWhiteListWatch;
    private HttpEndpoints.Ports ports = new HttpEndpoints.Ports(-1, -1, -1);
    /** The PPS_Watch_Custom_Workload_WhiteList entry of kruise-configuration, read at start-up. */
    private final java.util.concurrent.atomic.AtomicReference<String> ppsWhiteList =
            new java.util.concurrent.atomic.AtomicReference<>();
    /** Whether the PersistentPodState informer runs (the CRD is installed); until then the webhooks see none. */
    private final AtomicBoolean ppsCached = new AtomicBoolean();

    private ManagerApp(ManagerConfig config, KubernetesClient client, List<ControllerDefinition> controllers) {
        this.config = config;
        this.client = client;
        this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        InstrumentedVertx.Instrumented instrumented = InstrumentedVertx.create(new VertxOptions()
                .setWarningExceptionTime(2).setWarningExceptionTimeUnit(java.util.concurrent.TimeUnit.SECONDS), registry);
        this.vertx = instrumented.vertx();
        CacheEventBus.registerCodec(vertx);
        // The app's registry, so /metrics shows the cache's meters (kruise_cache_objects, informer retries).
        // Its informers list and watch through a LeanDecodingClient view of this client (no managedFields decoded,
        // same HTTP client); controllers' and webhooks' own calls keep this client.
        this.cache = new WatchCache(client, new WatchCacheOptions(config.settings().namespace(),
                config.syncPeriod(), config.cacheMutationDetector(), true, Long.parseLong(config.settings().extra()
                .getOrDefault(ManagerCommand.CACHE_LIST_PAGE_SIZE_FLAG, "0"))), registry);
        PlanRecorder plans = new PlanRecorder();
        int shardCount = Integer.parseInt(config.settings().extra().getOrDefault(ManagerCommand.SHARDS_FLAG, "1"));
        if (config.leaderElection() && shardCount > 1) {
            // --shards N: one lease per shard; the write fence is per key (its shard held and renewed in time).
            this.shards = new Shards(shardCount, config.leaderElectionSettings().renewDeadline().toNanos(),
                    System::nanoTime);
            this.shardCache = new ShardCacheScope(shardCount, Map.of(Pod.class, readsPodsEverywhere(controllers)));
            cache.cacheByShard(shardCache);
            shards.gateOnCache();
            this.election = null;
            this.shardElection = new ShardElection(client, config.leaderElectionSettings(), shards,
                    new ShardElection.Listener() {
                        private final Context ctx = vertx.getOrCreateContext();

                        @Override
                        public void gained(Set<Integer> won) {
                            // Keys of the won shards wait until the cache lists their objects (Shards.gateOnCache);
                            // the cluster-scoped keys (shard 0) until the kinds cached whole hold every shard too,
                            // which may take a whole-cluster list: the namespaced keys do not wait for it.
                            java.util.Map<Integer, Long> wins = shards.awaitingCache(won);
                            shardCache.gained(won, () -> {
                                shards.cacheReady(wins);
                                LOG.info("{}: shard(s) {} cached: their namespaced keys are owned",
                                        shardElection.identity(), won);
                                if (!closed.get()) {
                                    announce(won);
                                }
                            }).whenComplete((ignored, failure) -> {
                                if (failure != null) {
                                    LOG.info("shard(s) {} not cached: {}", won, failure.toString());
                                    return;
                                }
                                shards.wholeCacheReady(wins);
                                if (wins.containsKey(0)) {
                                    LOG.info("{}: shard 0 cached whole: cluster-scoped keys are owned",
                                            shardElection.identity());
                                    if (!closed.get()) {
                                        announceClusterKeys();
                                    }
                                }
                            });
                        }

                        private void announceClusterKeys() {
                            ctx.runOnContext(v -> {
                                // Not leading yet: the controllers' start replays them (owned by then).
                                if (shards.holds(0) && supervisor.leading()) {
                                    vertx.eventBus().publish(Shards.CLUSTER_KEYS_OWNED_ADDRESS, null);
                                }
                            });
                        }

                        private void announce(Set<Integer> won) {
                            ctx.runOnContext(v -> {
                                if (!shards.holdsAny()) {
                                    // Lost again while the cache was listing: nothing to start.
                                    return;
                                }
                                if (!supervisor.leading()) {
                                    supervisor.startLeading();
                                } else {
                                    vertx.eventBus().publish(Shards.GAINED_ADDRESS,
                                            new io.vertx.core.json.JsonArray(new java.util.ArrayList<>(won)));
                                }
                            });
                        }

                        @Override
                        public void lost(Set<Integer> gone) {
                            shardCache.lost(gone);
                            // Keys of lost shards are dropped by the runtime when taken; controllers stop only when
                            // no shard is left.
                            ctx.runOnContext(v -> {
                                if (!shards.holdsAny() && supervisor.leading()) {
                                    supervisor.stopLeading();
                                }
                            });
                        }
                    }, registry);
            LeaderElection.registerLeaderGauge(registry, shards::holdsAny);
            registerShardCacheGauges(registry, shards);
            this.kube = new KubeExecutor(vertx, "kubernetes-ops-pool", 16,
                    (KubeExecutor.WriteFence) key -> !closed.get() && shards.mayWrite(key));
        } else {
            this.shards = Shards.single();
            this.shardCache = null;
            this.shardElection = null;
            if (config.leaderElection()) {
                this.election = new LeaderElection(client, config.leaderElectionSettings(), new LeaderElection.Listener() {
                    private final Context ctx = vertx.getOrCreateContext();

                    @Override
                    public void startedLeading() {
                        ctx.runOnContext(v -> supervisor.startLeading());
                    }

                    @Override
                    public void stoppedLeading() {
                        ctx.runOnContext(v -> supervisor.stopLeading());
                    }
                }, registry);
            } else {
                this.election = null;
                // Without election this replica is the leader from the start.
                LeaderElection.registerLeaderGauge(registry, () -> true);
            }
            this.kube = new KubeExecutor(vertx, "kubernetes-ops-pool", 16,
                    () -> !closed.get() && (election == null || election.isLeader()));
        }
        ControllerContext context = new ControllerContext(vertx, cache, client, kube, config.featureGates(), registry,
                plans, config.settings(), shards);
        this.supervisor = new ControllerSupervisor(context, controllers, config.cacheSyncTimeout());

        // The webhook runs on every replica (not only the leader) and reads pods from the shared cache.
        CachedSidecarSetLookup.registerIndexes(cache);
        String kruiseNamespace = config.webhook().namespace();
        CachedSidecarSetLookup sidecarSetLookup = new CachedSidecarSetLookup(cache, kruiseNamespace,
                () -> vertx.executeBlocking(() -> {
                    ConfigMap cm = client.configMaps().inNamespace(kruiseNamespace)
                            .withName(WellKnown.KRUISE_CONFIGURATION_CONFIGMAP).get();
                    return Optional.ofNullable(cm == null || cm.getData() == null ? null
                            : cm.getData().get(WellKnown.SIDECARSET_PATCH_POD_METADATA_WHITELIST_KEY));
                }));
        java.util.function.Supplier<CustomWorkloadWhiteList> customWorkloads = () -> {
            String raw = workloadSpreadWhiteList.get();
            return raw == null ? CustomWorkloadWhiteList.EMPTY : CustomWorkloadWhiteList.parse(raw);
        };
        WorkloadSpreadLookup workloadSpreads = WorkloadSpreadLookup.of(
                namespace -> cache.resource(WorkloadSpread.class).list(namespace), customWorkloads,
                new dev.kruisevertx.webhook.workloadspread.CachedTargetTemplates(cache));
        WorkloadSpreadPodRecorder workloadSpreadRecorder = new WorkloadSpreadPodRecorder(
                new ClientWorkloadSpreadStore(client, cache, customWorkloads),
                PodVersions.of(config.settings().extra().getOrDefault(
                        dev.kruisevertx.workloadspread.WorkloadSpreads.VERSIONED_STATUS_FLAG,
                        dev.kruisevertx.workloadspread.WorkloadSpreads.DEFAULT_VERSIONED_STATUS_WORKLOADS)), customWorkloads);
        AdmissionRegistry admission = new AdmissionRegistry();
        ConversionRegistry conversion = KruiseWebhooks.registerConversions(new ConversionRegistry());
        this.webhookKube = new KubeExecutor(vertx, "webhook-kube-pool", 8);
        CachedResource<PodUnavailableBudget> budgets = cache.resource(PodUnavailableBudget.class);
        KruiseWebhooks.registerAll(admission, WebhookDependencies.of(config.featureGates())
                .withBudgets(budgets::list)
                .withPubGuard(pubGuard(budgets))
                .withPods(podLookup())
                // No node cache: the CRR webhook's rare node read goes to the API server, off the event loop.
                .withNodes(name -> vertx.executeBlocking(() -> Optional.ofNullable(client.nodes().withName(name).get())))
                // SidecarSet validation and pod injection read SidecarSets, namespaces and SidecarSet revisions from
                // the shared cache (informers started on every replica in start()).
                .withSidecarSets(sidecarSetLookup)
                // WorkloadSpread validation refuses a second WorkloadSpread on the same workload; the pod webhook
                // places pods by the WorkloadSpreads of the shared cache (informer on every replica) and records
                // them in the status on workers.
                .withWorkloadSpreads(workloadSpreads)
                .withWorkloadSpreadPods(new WorkloadSpreadPodAdmission(vertx, workloadSpreads,
                        workloadSpreadRecorder))
                // Cascading deletion protection: cached pods (the API server for namespaces the cache does not
                // watch), claims and custom resources listed page by page; all on workers.
                .withDeletionProtection(new ClusterDeletionLookup(vertx, client, namespace ->
                        (cache.options().namespace() == null || cache.options().namespace().equals(namespace))
                                && (shardCache == null || shardCache.caches(Pod.class, namespace))
                                ? Optional.of(cache.resource(Pod.class).list(namespace)) : Optional.empty()))
                .withMeters(registry)
                // PersistentPodState validation (one per workload) and pod step 6 read the shared cache.
                .withPersistentPodStates(dev.kruisevertx.webhook.persistentpodstate.PersistentPodStateLookup.of(
                        namespace -> ppsCached.get() ? cache.resource(
                                dev.kruisevertx.api.apps.v1alpha1.PersistentPodState.class).list(namespace) : List.of(),
                        () -> {
                            String raw = ppsWhiteList.get();
                            return raw == null ? CustomWorkloadWhiteList.EMPTY : CustomWorkloadWhiteList.parse(raw,
                                    WellKnown.PPS_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY);
                        }))
                // EnablePodProbeMarkerOnServerless: pods are annotated with the probes of the cached markers.
                .withPodProbeMarkers(new dev.kruisevertx.webhook.podprobemarker.PodProbeMarkerLookup() {
                    @Override
                    public List<dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker> inNamespace(String namespace) {
                        return cache.resource(dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker.class).list(namespace);
                    }

                    @Override
                    public Optional<dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker> get(String namespace, String name) {
                        return Optional.ofNullable(cache.resource(dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker.class)
                                .get(namespace, name));
                    }
                }));
        this.webhook = new WebhookVerticle(config.webhook(), client, admission, conversion, registry,
                config.featureGates().enabled(Feature.EnableExternalCerts));

        HealthChecks liveness = new HealthChecks("healthz");
        liveness.add("ping", () -> null);
        HealthChecks readiness = new HealthChecks("readyz");
        readiness.add("informers-synced", () -> cache.hasSynced() ? null : "shared informers have not synced yet");
        readiness.add("webhook-ready", () -> webhook.readiness() != null && webhook.readiness().isReady() ? null
                : "webhook not ready" + (webhook.readiness() == null || webhook.readiness().lastProblem() == null
                ? "" : ": " + webhook.readiness().lastProblem()));
        this.endpoints = new HttpEndpoints(vertx, registry, liveness, readiness,
                new DebugEndpoints(vertx, instrumented.eventBusMetrics(), plans, this::controllersView, this::isLeader));
        this.metricsAccess = config.metricsSecure() ? new MetricsAccessReview(client, kube) : null;
    }

    /**
     * The informers behind SidecarSet injection in {@code /mutate-pod}, on every replica (the webhook serves
     * everywhere), synced before the webhook serves so no pod is admitted past a SidecarSet the cache has not seen.
     * Without the SidecarSet CRD nothing starts and pods pass without injection.
     */
    private Future<Void> startSidecarSetInformers() {
        if (!config.featureGates().enabled(Feature.PodWebhook)) {
            return Future.succeededFuture();
        }
        return vertx.executeBlocking(() -> cache.isServed(dev.kruisevertx.api.apps.v1beta1.SidecarSet.class))
                .compose(served -> {
                    if (!served) {
                        LOG.info("SidecarSet CRD not installed: pods are admitted without SidecarSet injection");
                        return Future.succeededFuture();
                    }
                    List<Future<Void>> started = new java.util.ArrayList<>();
                    for (Class<? extends io.fabric8.kubernetes.api.model.HasMetadata> kind : CachedSidecarSetLookup.kinds()) {
                        started.add(Future.fromCompletionStage(cache.start(kind), vertx.getOrCreateContext()));
                    }
                    return Future.all(started).mapEmpty();
                });
    }

    /** The PodUnavailableBudget check of {@code /validate-pod}: cached budgets, status writes on every replica. */
    private PubGuard pubGuard(CachedResource<PodUnavailableBudget> budgets) {
        InPlaceUpdater inPlace = new InPlaceUpdater(RevisionLabels.plain());
        EventRecorder podEvents = new EventRecorder(client, webhookKube, Clock.systemUTC(), "kruise-manager", "v1",
                "Pod");
        return new PubGuard(vertx, PubStatusStore.of(client, webhookKube::call), budgets::get,
                pod -> inPlace.checkCompleted(pod).done(),
                config.featureGates().enabled(Feature.InPlacePodVerticalScaling), Clock.systemUTC(), registry,
                (pod, pub, username) -> podEvents.emit(pod, EventRecorder.WARNING, "PubPreventPodDeletion",
                        "openkruise pub prevents pod deletion"));
    }

    /**
     * The PodUnavailableBudgets back the webhook on every replica (not only the leader's controller); started when a
     * PUB gate is on and the CRD is installed, else the lookups see no budget.
     */
    private Future<Void> startBudgetCache() {
        if (!config.featureGates().enabled(Feature.PodUnavailableBudgetDeleteGate)
                && !config.featureGates().enabled(Feature.PodUnavailableBudgetUpdateGate)) {
            return Future.succeededFuture();
        }
        return vertx.executeBlocking(() -> cache.isServed(PodUnavailableBudget.class), false).compose(served -> {
            if (!served) {
                LOG.info("PodUnavailableBudget CRD not installed: pod deletions are not checked against budgets");
                return Future.succeededFuture();
            }
            return Future.fromCompletionStage(cache.start(PodUnavailableBudget.class), vertx.getOrCreateContext());
        });
    }

    /**
     * The WorkloadSpread informer behind {@code /mutate-pod}'s WorkloadSpread step, on every replica, and the custom
     * workload whitelist of {@code kruise-configuration} (read once, as OpenKruise does). Without the CRD nothing
     * starts and pods pass unplaced.
     */
    private Future<Void> startWorkloadSpreadInformer() {
        if (!config.featureGates().enabled(Feature.PodWebhook) || !config.featureGates().enabled(Feature.WorkloadSpread)) {
            return Future.succeededFuture();
        }
        String kruiseNamespace = config.webhook().namespace();
        return vertx.executeBlocking(() -> {
            if (!cache.isServed(WorkloadSpread.class)) {
                return false;
            }
            try {
                ConfigMap cm = client.configMaps().inNamespace(kruiseNamespace)
                        .withName(WellKnown.KRUISE_CONFIGURATION_CONFIGMAP).get();
                workloadSpreadWhiteList.set(cm == null || cm.getData() == null ? null
                        : cm.getData().get(WellKnown.WORKLOADSPREAD_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY));
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                LOG.info("ConfigMap {} not readable ({}): no custom workloads for WorkloadSpread",
                        WellKnown.KRUISE_CONFIGURATION_CONFIGMAP, e.getCode());
            }
            // A kind added to the whitelist later is honoured without a restart (the controller follows it too).
            workloadSpreadWhiteListWatch = WhiteListWatch.start(client, kruiseNamespace,
                    WellKnown.WORKLOADSPREAD_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY, workloadSpreadWhiteList::set);
            return true;
        }).compose(served -> {
            if (!served) {
                LOG.info("WorkloadSpread CRD not installed: pods are admitted without WorkloadSpread placement");
                return Future.succeededFuture();
            }
            return Future.fromCompletionStage(cache.start(WorkloadSpread.class), vertx.getOrCreateContext());
        });
    }

    /**
     * The PersistentPodState informer behind its validation and {@code /mutate-pod}'s step 6, on every replica, and
     * the PPS custom workload whitelist of {@code kruise-configuration} (read once, as for WorkloadSpread). Without the
     * CRD nothing starts and pods pass without topology injection.
     */
    private Future<Void> startPersistentPodStateInformer() {
        String kruiseNamespace = config.webhook().namespace();
        return vertx.executeBlocking(() -> {
            if (!cache.isServed(dev.kruisevertx.api.apps.v1alpha1.PersistentPodState.class)) {
                return false;
            }
            try {
                ConfigMap cm = client.configMaps().inNamespace(kruiseNamespace)
                        .withName(WellKnown.KRUISE_CONFIGURATION_CONFIGMAP).get();
                ppsWhiteList.set(cm == null || cm.getData() == null ? null
                        : cm.getData().get(WellKnown.PPS_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY));
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                LOG.info("ConfigMap {} not readable ({}): no custom workloads for PersistentPodState",
                        WellKnown.KRUISE_CONFIGURATION_CONFIGMAP, e.getCode());
            }
            return true;
        }, false).compose(served -> {
            if (!served) {
                LOG.info("PersistentPodState CRD not installed: pods are admitted without persistent topology");
                return Future.succeededFuture();
            }
            return Future.fromCompletionStage(cache.start(dev.kruisevertx.api.apps.v1alpha1.PersistentPodState.class),
                    vertx.getOrCreateContext()).onSuccess(v -> ppsCached.set(true));
        });
    }

    /**
     * The PodProbeMarker informer behind {@code /mutate-pod}'s serverless step (gate EnablePodProbeMarkerOnServerless),
     * on every replica. Without the CRD nothing starts and pods pass without the probe annotations.
     */
    private Future<Void> startPodProbeMarkerInformer() {
        if (!config.featureGates().enabled(Feature.PodWebhook)
                || !config.featureGates().enabled(Feature.EnablePodProbeMarkerOnServerless)) {
            return Future.succeededFuture();
        }
        return vertx.executeBlocking(() -> cache.isServed(dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker.class), false)
                .compose(served -> {
                    if (!served) {
                        LOG.info("PodProbeMarker CRD not installed: pods are admitted without serverless probe annotations");
                        return Future.succeededFuture();
                    }
                    return Future.fromCompletionStage(cache.start(dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker.class),
                            vertx.getOrCreateContext());
                });
    }

    /** How /metrics is served; the certificate is read or made on a worker (file IO, key generation). */
    private Future<HttpEndpoints.MetricsSecurity> metricsSecurity() {
        if (!config.metricsSecure()) {
            return Future.succeededFuture(HttpEndpoints.MetricsSecurity.NONE);
        }
        return vertx.executeBlocking(() -> new HttpEndpoints.MetricsSecurity(
                MetricsCertificates.load(config.metricsCertDir()), metricsAccess));
    }

    /** Builds and starts a manager on the given client; fails with a clear message when something is wrong. */
    public static Future<ManagerApp> start(ManagerConfig config, KubernetesClient client,
                                           List<ControllerDefinition> controllers) {
        ManagerApp app = new ManagerApp(config, client, controllers);
        // Contextless, like close(): a failed start closes this Vert.x, whose event loops then run no listener.
        Promise<ManagerApp> started = Promise.promise();
        app.metricsSecurity()
                .compose(security -> app.endpoints.start(config.metricsAddr(), config.healthProbeAddr(),
                        config.debugAddr(), security))
                .compose(ports -> {
                    app.ports = ports;
                    LOG.info("serving /metrics on {} port {}, /healthz,/readyz on port {}, /debug/* on {}",
                            config.metricsSecure() ? "HTTPS (TokenReview and SubjectAccessReview)" : "HTTP",
                            ports.metrics(), ports.health(), config.debugAddr().disabled() ? "no port"
                                    : config.debugAddr().host() + ":" + ports.debug());
                    // Pods, SidecarSets, budgets and WorkloadSpreads back the webhook's lookups; then, as OpenKruise
                    // does, controllers start only once the webhook serves with synced certificates. The informers list
                    // at once: one after the other, 50,000 pods then 50,000 SidecarSets and their revisions cost a
                    // restart ~20 s more (SidecarSet start-up benchmark, restart mode).
                    return Future.all(
                            Future.fromCompletionStage(app.cache.start(Pod.class), app.vertx.getOrCreateContext()),
                            app.startSidecarSetInformers(), app.startBudgetCache(),
                            app.startWorkloadSpreadInformer(), app.startPersistentPodStateInformer(),
                            app.startPodProbeMarkerInformer());
                })
                .compose(v -> app.vertx.deployVerticle(app.webhook))
                .compose(id -> app.webhook.ready().recover(e -> Future.failedFuture(
                        e instanceof InvalidConfigurationException ? e : new IllegalStateException(
                        "webhook did not become ready within --webhook-initialize-timeout "
                                + config.webhookInitializeTimeout().toSeconds() + "s: " + e.getMessage(), e))))
                .compose(v -> {
                    LOG.info("webhook ready on port {}", app.webhook.port());
                    return app.supervisor.prepare(config.crdRecheckPeriod());
                })
                .compose(v -> dev.kruisevertx.takeover.TakeoverStartup.run(app.vertx, client,
                        config.settings().namespace()))
                .map(report -> {
                    app.takeover = report;
                    if (Boolean.parseBoolean(config.settings().extra().getOrDefault(
                            dev.kruisevertx.takeover.TakeoverStartup.DRY_RUN_FLAG, "false"))) {
                        LOG.info("--takeover-dry-run: no controller started (the report is on /debug/controllers)");
                        return app;
                    }
                    if (app.election != null) {
                        app.election.start();
                    } else if (app.shardElection != null) {
                        app.shardElection.start();
                    } else {
                        LOG.info("leader election disabled: running controllers at once");
                        app.supervisor.startLeading();
                    }
                    return app;
                })
                .onComplete(ar -> {
                    if (ar.succeeded()) {
                        started.complete(app);
                    } else {
                        app.close().onComplete(ignored -> started.fail(ar.cause()));
                    }
                });
        return started.future();
    }

    /** The takeover check's report (null until it ran, or when the workloads could not be listed). */
    private volatile dev.kruisevertx.takeover.TakeoverCheck.Report takeover;

    /** {@code /debug/controllers}: each controller's status, and the takeover check's report under "takeover". */
    private Map<String, Object> controllersView() {
        Map<String, Object> out = new java.util.LinkedHashMap<>(supervisor.view());
        if (shardElection != null) {
            Map<String, Object> view = new java.util.LinkedHashMap<>();
            view.put("count", shards.count());
            view.put("identity", shardElection.identity());
            view.put("held", List.copyOf(shards.held()));
            Map<String, String> holders = new java.util.LinkedHashMap<>();
            shardElection.holders().forEach((shard, holder) -> holders.put(Integer.toString(shard), holder));
            view.put("holders", holders);
            // Per held shard: which of its keys still wait for the cache (NONE once it holds all they read).
            Map<String, String> cacheWaits = new java.util.LinkedHashMap<>();
            shards.held().forEach(shard -> cacheWaits.put(Integer.toString(shard), shards.cacheWait(shard).name()));
            view.put("cacheWaits", cacheWaits);
            out.put("shards", view);
        }
        dev.kruisevertx.takeover.TakeoverCheck.Report report = takeover;
        if (report != null) {
            out.put("takeover", report.view());
        }
        return out;
    }

    public dev.kruisevertx.takeover.TakeoverCheck.Report takeover() {
        return takeover;
    }

    public Vertx vertx() {
        return vertx;
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public WatchCache cache() {
        return cache;
    }

    public ControllerSupervisor supervisor() {
        return supervisor;
    }

    public KubernetesClient client() {
        return client;
    }

    /** Leads (one shard) or holds at least one shard (--shards). */
    public boolean isLeader() {
        if (shardElection != null) {
            return shards.holdsAny();
        }
        return election == null || election.isLeader();
    }

    /** The shards this replica holds (every key owned with one shard). */
    public Shards shards() {
        return shards;
    }

    public int webhookPort() {
        return webhook.port();
    }

    public int metricsPort() {
        return ports.metrics();
    }

    public int healthPort() {
        return ports.health();
    }

    /** The port of /debug/* (-1 when disabled). */
    public int debugPort() {
        return ports.debug();
    }

    /**
     * The webhooks' pod reads: the shared cache, and with --shards the API server (on a worker) for namespaces this
     * replica does not cache.
     */
    private dev.kruisevertx.webhook.cloneset.PodLookup podLookup() {
        return new dev.kruisevertx.webhook.cloneset.PodLookup() {
            @Override
            public Optional<Pod> find(String namespace, String name) {
                return Optional.ofNullable(cache.resource(Pod.class).get(namespace, name));
            }

            @Override
            public Future<Optional<Pod>> findAsync(String namespace, String name) {
                if (shardCache == null || shardCache.caches(Pod.class, namespace)) {
                    return Future.succeededFuture(find(namespace, name));
                }
                return vertx.executeBlocking(() -> Optional.ofNullable(
                        client.pods().inNamespace(namespace).withName(name).get()), false);
            }
        };
    }

    /** Per shard, 1 while this replica holds it and the cache holds every object its keys read, else 0. */
    static final String SHARD_CACHE_COMPLETE_METRIC = "kruise_manager_shard_cache_complete";

    private static void registerShardCacheGauges(PrometheusMeterRegistry registry, Shards shards) {
        for (int s = 0; s < shards.count(); s++) {
            int shard = s;
            io.micrometer.core.instrument.Gauge.builder(SHARD_CACHE_COMPLETE_METRIC,
                            () -> shards.holds(shard) && shards.cacheWait(shard) == Shards.CacheWait.NONE ? 1 : 0)
                    .tag("shard", Integer.toString(shard))
                    .description("1 while the shard is held and the cache holds every object its keys read")
                    .register(registry);
        }
    }

    /**
     * Controllers whose cluster-scoped keys (shard 0) read pods of every namespace: SidecarSet (its pods anywhere) and
     * NodePodProbe (the pods of a node). With one of them running, the holder of shard 0 caches every pod.
     */
    static final Set<String> READ_PODS_EVERYWHERE = Set.of("sidecarset", "nodepodprobe");

    static boolean readsPodsEverywhere(List<ControllerDefinition> controllers) {
        return controllers.stream().anyMatch(c -> READ_PODS_EVERYWHERE.contains(c.name()));
    }

    /** Stops controllers first (releasing the lease), then the cache and endpoints, then Vert.x. */
    public Future<Void> close() {
        if (!closed.compareAndSet(false, true)) {
            return Future.succeededFuture();
        }
        if (election != null) {
            election.close();
        }
        if (shardElection != null) {
            shardElection.close();
        }
        // Contextless: when close() runs on one of this Vert.x's event loops (a failed start-up), listeners bound to
        // that loop would never run once it stops, and the caller would wait for ever.
        Promise<Void> stopped = Promise.promise();
        supervisor.stopLeading()
                .eventually(() -> {
                    supervisor.close();
                    // Stopping informers closes their watches over HTTP: worker thread, not the event loop.
                    return vertx.executeBlocking(() -> {
                        if (workloadSpreadWhiteListWatch != null) {
                            workloadSpreadWhiteListWatch.stop();
                        }
                        cache.close();
                        if (shardCache != null) {
                            shardCache.close();
                        }
                        return null;
                    }).eventually(endpoints::close);
                })
                .onComplete(ignored -> {
                    kube.close();
                    webhookKube.close();
                    // Closed from a thread of its own, so the completion is heard after the event loops stop.
                    new Thread(() -> vertx.close().onComplete(ar -> {
                        LOG.info("manager stopped");
                        stopped.complete();
                    }), "manager-close").start();
                });
        return stopped.future();
    }
}
