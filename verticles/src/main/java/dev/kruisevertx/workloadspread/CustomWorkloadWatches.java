package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cache.CacheListener;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.cache.WatchCache;
import dev.kruisevertx.controller.Enqueuer;
import dev.kruisevertx.controller.ExternalSource;
import dev.kruisevertx.controller.Request;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The custom workload kinds of the {@value WellKnown#WORKLOADSPREAD_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY} entry of
 * ConfigMap {@code kruise-configuration}, followed while the controller runs: the ConfigMap is watched (one object,
 * by name), and each whitelisted kind gets the shared watch cache's informer for it ({@link WatchCache#generic}: one
 * per kind, shared with any other controller asking for it), whose events enqueue the WorkloadSpreads targeting the
 * changed workload. OpenKruise adds these watches once, when its controller starts; here a kind added to the entry
 * later is watched without a restart.
 *
 * <p>Until the ConfigMap has been read, and while a kind's informer has not listed yet, a custom-target
 * WorkloadSpread is not decided ({@link IllegalArgumentException}: a skipped plan naming the wait); both events
 * enqueue it again. A ConfigMap that cannot be read means no custom workloads (one log line; the watch keeps
 * retrying). A malformed entry is an {@link IllegalArgumentException} naming the entry. Handlers only enqueue;
 * discovery and informer creation run on a worker thread.
 */
public final class CustomWorkloadWatches implements Supplier<CustomWorkloadWhiteList>, ExternalSource,
        WorkloadSpreadTargets.CustomReader {
    private static final Logger LOG = LoggerFactory.getLogger(CustomWorkloadWatches.class);

    private final KubernetesClient client;
    private final WatchCache cache;
    private final Vertx vertx;
    private final String namespace;
    private final String whiteListKey;
    private final String consumer;
    private final java.util.function.BiPredicate<String, String> isCustom;
    private final java.util.function.Function<CustomWorkloadWhiteList.Workload,
            dev.kruisevertx.controller.EventMapper<GenericKubernetesResource>> mapperFor;
    private final java.util.function.BiConsumer<String, Enqueuer> enqueueCustomTargets;
    /** Handlers attached to the shared informers, per kind (removed on stop; the informers stay in the cache). */
    private final Map<String, Attached> attached = new ConcurrentHashMap<>();
    /** Whitelisted kinds discovery did not find (their workloads count as gone until the ConfigMap changes). */
    private final java.util.Set<String> unserved = ConcurrentHashMap.newKeySet();
    private volatile CustomWorkloadWhiteList whiteList;
    private volatile IllegalArgumentException malformed;
    private volatile boolean unreadableLogged;
    private volatile Enqueuer queue;
    private volatile boolean stopped;

    private record Attached(CachedResource<GenericKubernetesResource> resource,
                            CacheListener<GenericKubernetesResource> listener) {
    }

    CustomWorkloadWatches(KubernetesClient client, WatchCache cache, Vertx vertx, String namespace,
                          CachedResource<WorkloadSpread> spreads) {
        this(client, cache, vertx, namespace, WellKnown.WORKLOADSPREAD_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY,
                "WorkloadSpread", WorkloadSpreadTargets::isCustom,
                w -> WorkloadSpreadController.<GenericKubernetesResource>workloadToSpreads(spreads, w.kind()),
                (kind, q) -> enqueueCustomSpreads(spreads, kind, q));
    }

    /**
     * For any controller following a whitelist entry of {@code kruise-configuration} with the same shape
     * (PersistentPodState's {@value WellKnown#PPS_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY}).
     *
     * @param consumer             who follows the entry, named in log lines
     * @param isCustom             whether a group and kind need an informer (built-in kinds are watched already)
     * @param mapperFor            the handler of a whitelisted kind's events (only enqueues)
     * @param enqueueCustomTargets enqueues the objects targeting a kind (any custom kind when null): called when the
     *                             whitelist changed or a kind's informer has listed
     */
    public CustomWorkloadWatches(KubernetesClient client, WatchCache cache, Vertx vertx, String namespace,
                                 String whiteListKey, String consumer,
                                 java.util.function.BiPredicate<String, String> isCustom,
                                 java.util.function.Function<CustomWorkloadWhiteList.Workload,
                                         dev.kruisevertx.controller.EventMapper<GenericKubernetesResource>> mapperFor,
                                 java.util.function.BiConsumer<String, Enqueuer> enqueueCustomTargets) {
        this.client = client;
        this.cache = cache;
        this.vertx = vertx;
        this.namespace = namespace;
        this.whiteListKey = whiteListKey;
        this.consumer = consumer;
        this.isCustom = isCustom;
        this.mapperFor = mapperFor;
        this.enqueueCustomTargets = enqueueCustomTargets;
    }

    /** The whitelist as last read; empty until the ConfigMap has been read or while its entry is malformed. */
    public CustomWorkloadWhiteList current() {
        CustomWorkloadWhiteList current = whiteList;
        return current == null || malformed != null ? CustomWorkloadWhiteList.EMPTY : current;
    }

    @Override
    public CustomWorkloadWhiteList get() {
        if (malformed != null) {
            throw malformed;
        }
        CustomWorkloadWhiteList current = whiteList;
        if (current == null) {
            throw new IllegalArgumentException("waiting for ConfigMap " + namespace + "/"
                    + WellKnown.KRUISE_CONFIGURATION_CONFIGMAP + " to be read (custom workload whitelist)");
        }
        return current;
    }

    /** The workload from the shared informer of the entry's kind; null when that kind is not served. */
    @Override
    public GenericKubernetesResource get(String ns, String apiVersion, String kind, String name) {
        CustomWorkloadWhiteList.Workload entry = get().entry(WorkloadSpreadTargets.group(apiVersion), kind)
                .orElse(null);
        if (entry == null) {
            return null;
        }
        Attached a = attached.get(key(entry));
        if (a == null) {
            if (unserved.contains(key(entry))) {
                return null;
            }
            // Whitelisted a moment ago: its informer is being added on a worker. Counting the workload as gone
            // meanwhile would write a status of 0 pods and flap.
            throw new IllegalArgumentException("waiting for the watch of " + key(entry) + " to start");
        }
        if (!a.resource().hasSynced()) {
            throw new IllegalArgumentException("waiting for the watch of " + key(entry) + " to list");
        }
        return a.resource().get(ns, name);
    }

    @Override
    public Runnable start(Enqueuer queue) {
        this.queue = queue;
        SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(namespace)
                .withName(WellKnown.KRUISE_CONFIGURATION_CONFIGMAP).runnableInformer(0);
        informer.exceptionHandler((isStarted, t) -> {
            if (whiteList == null && malformed == null) {
                // As before the watch: an unreadable ConfigMap means no custom workloads until it can be read.
                whiteList = CustomWorkloadWhiteList.EMPTY;
                enqueueCustomTargets(null);
            }
            if (!unreadableLogged) {
                unreadableLogged = true;
                LOG.info("ConfigMap {}/{} not readable ({}): no custom workloads for {} until it is",
                        namespace, WellKnown.KRUISE_CONFIGURATION_CONFIGMAP,
                        t instanceof KubernetesClientException k ? k.getCode() : t.getClass().getSimpleName(), consumer);
            }
            return true;
        });
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap cm) {
                changed(cm);
            }

            @Override
            public void onUpdate(ConfigMap oldCm, ConfigMap newCm) {
                changed(newCm);
            }

            @Override
            public void onDelete(ConfigMap cm, boolean finalStateUnknown) {
                changed(null);
            }

            @Override
            public void onNothing() {
                // Listed and the ConfigMap does not exist: no custom workloads.
                if (whiteList == null && malformed == null) {
                    changed(null);
                }
            }
        });
        informer.start();
        return () -> {
            stopped = true;
            attached.values().forEach(a -> a.resource().removeListener(a.listener()));
            attached.clear();
            // Stopping closes the watch over HTTP: not on the verticle's event loop.
            vertx.executeBlocking(() -> {
                informer.stop();
                return null;
            }, false);
        };
    }

    /** On the informer's thread: parse (cheap), then attach new kinds on a worker. */
    private void changed(ConfigMap cm) {
        try {
            whiteList = CustomWorkloadWhiteList.fromConfigMapData(cm == null ? null : cm.getData(), whiteListKey);
            malformed = null;
        } catch (IllegalArgumentException e) {
            if (malformed == null) {
                LOG.info("{}: {} objects with custom targets are not handled", e.getMessage(), consumer);
            }
            malformed = e;
        }
        if (malformed != null) {
            enqueueCustomTargets(null);
            return;
        }
        CustomWorkloadWhiteList current = whiteList;
        vertx.executeBlocking(() -> {
            for (CustomWorkloadWhiteList.Workload w : current.workloads()) {
                attach(w);
            }
            // Kinds added or removed change what a custom-target WorkloadSpread counts.
            enqueueCustomTargets(null);
            return null;
        }, false).onFailure(t -> LOG.warn("following the custom workload whitelist failed: {}", t.toString()));
    }

    /** Worker thread (discovery). Built-in kinds are watched already and never attached twice. */
    private void attach(CustomWorkloadWhiteList.Workload w) {
        String key = key(w);
        if (stopped || attached.containsKey(key) || w.version().isEmpty() || w.kind().isEmpty()
                || !isCustom.test(w.group(), w.kind())) {
            return;
        }
        var resource = cache.generic(w.group(), w.version(), w.kind());
        if (resource.isEmpty()) {
            if (unserved.add(key)) {
                LOG.info("whitelisted workload kind {} is not served by the API server: not watched", key);
            }
            return;
        }
        unserved.remove(key);
        var mapper = mapperFor.apply(w);
        CacheListener<GenericKubernetesResource> listener = event -> {
            Enqueuer q = queue;
            if (q != null && !stopped) {
                mapper.map(event, q);
            }
        };
        if (attached.putIfAbsent(key, new Attached(resource.get(), listener)) != null) {
            return;
        }
        resource.get().addListener(listener);
        LOG.info("watching whitelisted workload kind {} for {}", key, consumer);
        // WorkloadSpreads whose workload does not exist were skipped while the informer listed: decide them now.
        resource.get().informer().start().thenRun(() -> enqueueCustomTargets(w.kind()));
    }

    private void enqueueCustomTargets(String kind) {
        Enqueuer q = queue;
        if (q == null || stopped) {
            return;
        }
        enqueueCustomTargets.accept(kind, q);
    }

    /** Enqueues the WorkloadSpreads with a custom target (of {@code kind}, or any when null). */
    private static void enqueueCustomSpreads(CachedResource<WorkloadSpread> spreads, String kind, Enqueuer q) {
        for (WorkloadSpread ws : spreads.list()) {
            TargetReference ref = ws.getSpec() == null ? null : ws.getSpec().getTargetRef();
            if (ref != null && WorkloadSpreadTargets.isCustom(WorkloadSpreadTargets.group(ref.getApiVersion()),
                    ref.getKind()) && (kind == null || Objects.equals(kind, ref.getKind()))) {
                q.add(Request.of(ws));
            }
        }
    }

    private static String key(CustomWorkloadWhiteList.Workload w) {
        return (w.group().isEmpty() ? "" : w.group() + "/") + w.version() + "/" + w.kind();
    }

    /** For tests: whether a handler is attached for the kind. */
    boolean watching(String group, String version, String kind) {
        return attached.containsKey(key(new CustomWorkloadWhiteList.Workload(group, version, kind, null, null)));
    }
}
