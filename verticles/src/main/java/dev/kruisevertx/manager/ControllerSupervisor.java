package dev.kruisevertx.manager;

import dev.kruisevertx.cache.CacheEventBus;
import dev.kruisevertx.cache.WatchCache;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.controller.ControllerVerticle;
import dev.kruisevertx.features.FeatureGates;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.micrometer.core.instrument.Gauge;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Decides which controllers can run (feature gates, installed CRDs), prepares their shared informers on every
 * replica, and deploys/undeploys their verticles as leadership comes and goes.
 *
 * <p>OpenKruise skips a controller whose CRD is missing until the next restart; here missing kinds are looked
 * for again every {@code recheckPeriod}, and the controller starts as soon as its CRD is installed.
 */
public final class ControllerSupervisor {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerSupervisor.class);

    public enum State { DISABLED, MISSING_CRD, PREPARING, READY, RUNNING, FAILED }

    /** One controller as the supervisor sees it; shown on {@code /debug/controllers}. */
    public record Status(String name, State state, String reason, int workers) {
    }

    private final Vertx vertx;
    private final ControllerContext context;
    private final List<ControllerDefinition> definitions;
    private final Duration syncTimeout;
    private final Map<String, Status> statuses = new ConcurrentHashMap<>();
    private final Map<String, String> deployments = new ConcurrentHashMap<>();
    private final Set<Class<?>> bridged = ConcurrentHashMap.newKeySet();
    private volatile boolean leading;
    private long recheckTimer = -1;

    public ControllerSupervisor(ControllerContext context, List<ControllerDefinition> definitions, Duration syncTimeout) {
        this.vertx = context.vertx();
        this.context = context;
        this.definitions = List.copyOf(definitions);
        this.syncTimeout = syncTimeout;
        for (ControllerDefinition d : definitions) {
            Gauge.builder("kruise_controller_running", statuses,
                            s -> s.get(d.name()) != null && s.get(d.name()).state() == State.RUNNING ? 1 : 0)
                    .description("1 when the controller runs on this replica, 0 when it is disabled, "
                            + "missing its CRD, or this replica is not the leader")
                    .tag("controller", d.name()).register(context.registry());
        }
    }

    /** Prepares every enabled controller whose kinds are served; the others are reported, never fatal. */
    public Future<Void> prepare(Duration recheckPeriod) {
        FeatureGates gates = context.gates();
        List<Future<Void>> all = new ArrayList<>();
        for (ControllerDefinition d : definitions) {
            if (!d.enabled(gates)) {
                set(d, State.DISABLED, "disabled by feature gates");
                continue;
            }
            all.add(prepare(d));
        }
        if (recheckPeriod != null && !recheckPeriod.isZero()) {
            recheckTimer = vertx.setPeriodic(recheckPeriod.toMillis(), id -> recheckMissing());
        }
        return Future.join(all).mapEmpty();
    }

    private Future<Void> prepare(ControllerDefinition d) {
        set(d, State.PREPARING, "checking that its kinds are served");
        return context.kube().call(() -> missingKinds(d)).compose(missing -> {
            if (!missing.isEmpty()) {
                String reason = "CustomResourceDefinition " + String.join(", ", missing)
                        + " is not installed; the controller starts once it is";
                LOG.warn("controller {} skipped: {}", d.name(), reason);
                set(d, State.MISSING_CRD, reason);
                return Future.succeededFuture();
            }
            return startInformers(d).map(v -> {
                set(d, State.READY, leading ? "starting" : "waiting for leadership");
                if (leading) {
                    deploy(d);
                }
                return (Void) null;
            });
        }).recover(error -> {
            LOG.error("controller {} could not be prepared: {}", d.name(), error.toString(), error);
            set(d, State.FAILED, String.valueOf(error.getMessage()));
            return Future.succeededFuture();
        });
    }

    private List<String> missingKinds(ControllerDefinition d) {
        List<String> missing = new ArrayList<>();
        for (Class<? extends HasMetadata> type : d.requiredTypes()) {
            // Built-in kinds are always served; only custom resources can be missing.
            if (CustomResource.class.isAssignableFrom(type) && !context.cache().isServed(type)) {
                missing.add(HasMetadata.getPlural(type) + "." + HasMetadata.getGroup(type));
            }
        }
        return missing;
    }

    private Future<Void> startInformers(ControllerDefinition d) {
        WatchCache cache = context.cache();
        d.registerIndexes(cache);
        List<Class<? extends HasMetadata>> kinds = new ArrayList<>(d.requiredTypes());
        // Building the controller is side-effect free; it is done here only to learn which kinds it watches.
        d.create(context).watches().forEach(w -> kinds.add(w.type()));
        List<Future<Void>> synced = new ArrayList<>();
        for (Class<? extends HasMetadata> kind : kinds) {
            if (bridged.add(kind)) {
                CacheEventBus.bridge(vertx, cache, kind);
            }
            synced.add(Future.fromCompletionStage(cache.start(kind), vertx.getOrCreateContext()));
        }
        return Future.all(synced).timeout(syncTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .recover(e -> Future.failedFuture(new IllegalStateException("caches of " + d.name()
                        + " did not sync within --controller-cache-sync-timeout " + syncTimeout + ": " + e.getMessage(), e)))
                .mapEmpty();
    }

    private void recheckMissing() {
        for (ControllerDefinition d : definitions) {
            Status s = statuses.get(d.name());
            if (s != null && s.state() == State.MISSING_CRD) {
                prepare(d);
            }
        }
    }

    /** Whether controllers are meant to run here (leading, or holding a shard). */
    public boolean leading() {
        return leading;
    }

    /** Leadership gained: run every ready controller. */
    public Future<Void> startLeading() {
        leading = true;
        List<Future<Void>> started = new ArrayList<>();
        for (ControllerDefinition d : definitions) {
            Status s = statuses.get(d.name());
            if (s != null && s.state() == State.READY) {
                started.add(deploy(d));
            }
        }
        return Future.join(started).mapEmpty();
    }

    private Future<Void> deploy(ControllerDefinition d) {
        if (deployments.containsKey(d.name())) {
            return Future.succeededFuture();
        }
        int workers = context.settings().workersFor(d);
        return vertx.deployVerticle(new ControllerVerticle(d, context)).map(id -> {
            deployments.put(d.name(), id);
            statuses.put(d.name(), new Status(d.name(), State.RUNNING, "running", workers));
            return (Void) null;
        }).recover(e -> {
            LOG.error("controller {} failed to start: {}", d.name(), e.toString(), e);
            set(d, State.FAILED, "start failed: " + e.getMessage());
            return Future.succeededFuture();
        });
    }

    /** Leadership lost or shutting down: stop every controller (their writes are already fenced). */
    public Future<Void> stopLeading() {
        leading = false;
        List<Future<Void>> stopped = new ArrayList<>();
        for (ControllerDefinition d : definitions) {
            String id = deployments.remove(d.name());
            if (id != null) {
                stopped.add(vertx.undeploy(id).recover(e -> Future.succeededFuture()));
                set(d, State.READY, "waiting for leadership");
            }
        }
        return Future.join(stopped).mapEmpty();
    }

    public void close() {
        if (recheckTimer >= 0) {
            vertx.cancelTimer(recheckTimer);
        }
    }

    public Status status(String controller) {
        return statuses.get(controller);
    }

    /** Sorted statuses for {@code /debug/controllers}. */
    public Map<String, Status> view() {
        Map<String, Status> out = new LinkedHashMap<>();
        definitions.stream().map(ControllerDefinition::name).sorted().forEach(n -> {
            Status s = statuses.get(n);
            if (s != null) {
                out.put(n, s);
            }
        });
        return out;
    }

    private void set(ControllerDefinition d, State state, String reason) {
        statuses.put(d.name(), new Status(d.name(), state, reason, context.settings().workersFor(d)));
    }
}
