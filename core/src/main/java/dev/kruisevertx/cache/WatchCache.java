package dev.kruisevertx.cache;

import dev.kruisevertx.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.impl.BaseClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.informers.impl.DefaultSharedIndexInformer;
import io.fabric8.kubernetes.client.informers.impl.ListerWatcher;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The process-wide watch cache: exactly one fabric8 {@link SharedIndexInformer} per resource type,
 * created on the first {@link #resource} call and shared by every controller and webhook handler.
 *
 * <p>Every informer gets the {@link Indexes#NAMESPACE}, {@link Indexes#OWNER_UID} and {@link Indexes#ORPHAN_NAMESPACE} indexes, Pods also
 * {@link Indexes#NODE_NAME}; components add their own with {@link #addIndex} before the informer starts.
 * Reads return the cached instances without copying; see the read-only contract on {@link CachedResource}.
 *
 * <p>Failures: an informer never gives up. List and watch errors are logged and retried with fabric8's
 * exponential backoff (counted in {@value #RETRY_METRIC}); a watch that answers 410 Gone makes fabric8
 * relist, and objects missing from the new list are delivered as deletions.
 *
 * <p>Thread-safe. {@link #isServed} and {@link #close} block and must not run on an event loop; the
 * other methods do not block.
 */
public final class WatchCache implements AutoCloseable {
    public static final String RETRY_METRIC = "kruise_cache_informer_retries_total";
    /** Objects an informer holds, per kind (with {@code --shards}: the split between replicas). */
    public static final String OBJECTS_METRIC = "kruise_cache_objects";
    /** How often the mutation detector compares (client-go uses one second too). */
    static final Duration MUTATION_CHECK_PERIOD = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(WatchCache.class);

    private final KubernetesClient client;
    private final WatchCacheOptions options;
    private final MeterRegistry registry;
    private final CacheMutationDetector detector;
    /** One transform (and so one interner) for every kind: namespaces and label keys repeat across kinds. */
    private final LeanObjects lean;
    /** Keyed by the model class, or for kinds known only at run time by {@link #genericKey}. */
    private final ConcurrentMap<Object, InformerResource<?>> resources = new ConcurrentHashMap<>();
    /** Informers added at run time ({@link #generic}): their sync does not gate {@link #hasSynced}. */
    private final java.util.Set<Object> dynamic = ConcurrentHashMap.newKeySet();
    private final java.util.Set<List<Object>> bridges = ConcurrentHashMap.newKeySet();
    /** The threads the per-shard informers list on (see {@link #createSharded}). */
    private final java.util.Queue<ExecutorService> listExecutors = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile boolean closed;
    /** With {@code --shards}: the kinds cached per shard; null caches every kind whole. */
    private volatile ShardCacheScope shardScope;

    public WatchCache(KubernetesClient client, WatchCacheOptions options) {
        this(client, options, Metrics.globalRegistry);
    }

    /**
     * @param client the main client; with {@link WatchCacheOptions#leanObjects()} the informers list and watch
     *               through a {@link LeanDecodingClient} view of it (same HTTP client), which is never used to write
     */
    public WatchCache(KubernetesClient client, WatchCacheOptions options, MeterRegistry registry) {
        Objects.requireNonNull(client, "client");
        // Lists and watches decode without managedFields, which the lean transform would drop anyway.
        this.client = Objects.requireNonNull(options, "options").leanObjects() ? LeanDecodingClient.over(client) : client;
        this.options = Objects.requireNonNull(options, "options");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.detector = options.mutationDetector()
                ? new CacheMutationDetector(client.getKubernetesSerialization(), registry, MUTATION_CHECK_PERIOD)
                : null;
        this.lean = options.leanObjects() ? LeanObjects.withDefaultInterner() : null;
    }

    public WatchCacheOptions options() {
        return options;
    }

    /** The client the informers list and watch through (for tests). */
    KubernetesClient listingClient() {
        return client;
    }

    /**
     * Caches the kinds of {@code scope} per shard (see {@link ShardCacheScope}). Must happen before any of those
     * kinds' informers is created.
     *
     * @throws IllegalStateException an informer of a sharded kind exists already
     */
    public void cacheByShard(ShardCacheScope scope) {
        for (Class<? extends HasMetadata> kind : scope.kinds()) {
            if (resources.containsKey(kind)) {
                throw new IllegalStateException("the informer of " + kind.getSimpleName() + " exists already");
            }
        }
        this.shardScope = scope;
    }

    /** The shared cache of {@code type}, creating (not starting) its informer on first use. */
    @SuppressWarnings("unchecked")
    public <T extends HasMetadata> CachedResource<T> resource(Class<T> type) {
        return entry(type);
    }

    /**
     * Registers an index on the informer of {@code type}. Must happen before that informer starts.
     * Registering the same name again with the same function object is a no-op.
     *
     * @throws IllegalArgumentException the name is taken by another function
     * @throws IllegalStateException    the informer already started
     */
    @SuppressWarnings("unchecked")
    public <T extends HasMetadata> void addIndex(Class<T> type, String indexName, Function<? super T, List<String>> fn) {
        Objects.requireNonNull(indexName, "indexName");
        Objects.requireNonNull(fn, "fn");
        // Safe: the function only ever receives objects of type T.
        entry(type).addIndex(indexName, (Function<T, List<String>>) fn);
    }

    /**
     * Whether the API server serves {@code type} (for a custom resource: its CRD is installed), asked
     * through discovery. Core ({@code v1}) kinds are checked too. Blocking: call it on a worker thread.
     *
     * @throws KubernetesClientException when discovery fails for another reason than "not found"
     */
    public boolean isServed(Class<? extends HasMetadata> type) {
        String group = HasMetadata.getGroup(type);
        String version = HasMetadata.getVersion(type);
        String plural = HasMetadata.getPlural(type);
        String groupVersion = group == null || group.isEmpty() ? version : group + "/" + version;
        APIResourceList resourcesOfGroup;
        try {
            resourcesOfGroup = client.getApiResources(groupVersion);
        } catch (KubernetesClientException e) {
            if (ApiErrors.isNotFound(e)) {
                return false;
            }
            throw e;
        }
        return resourcesOfGroup != null && resourcesOfGroup.getResources() != null
                && resourcesOfGroup.getResources().stream().anyMatch(r -> plural.equals(r.getName()));
    }

    /** Starts the informer of {@code type} (idempotent, non-blocking); completes when it first synced. */
    public CompletionStage<Void> start(Class<? extends HasMetadata> type) {
        return entry(type).start();
    }

    /**
     * True when every started informer has completed its first list. Informers added at run time by {@link #generic}
     * do not count: one the manager may not list (RBAC not granted for a whitelisted kind) must not make the
     * process unready; their users check {@link CachedResource#hasSynced()} themselves.
     */
    public boolean hasSynced() {
        for (var e : resources.entrySet()) {
            InformerResource<?> r = e.getValue();
            if (r.isStarted() && !r.hasSynced() && !dynamic.contains(e.getKey())) {
                return false;
            }
        }
        return true;
    }

    /**
     * The shared informer of a kind known only at run time (a whitelisted custom workload), as
     * {@link GenericKubernetesResource}s, created and started on the first call for its group, version and kind and
     * shared by every later caller (controllers asking for the same kind get the same informer). Empty when the API
     * server does not serve the kind; the next call asks discovery again. Blocking (discovery): call it on a worker
     * thread. Listeners added to it must only enqueue, as for every other kind.
     *
     * @throws KubernetesClientException when discovery fails for another reason than "not found"
     */
    public Optional<CachedResource<GenericKubernetesResource>> generic(String group, String version, String kind) {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(kind, "kind");
        Object key = genericKey(group, version, kind);
        @SuppressWarnings("unchecked")
        InformerResource<GenericKubernetesResource> existing =
                (InformerResource<GenericKubernetesResource>) resources.get(key);
        if (existing != null) {
            return Optional.of(existing);
        }
        if (closed) {
            throw new IllegalStateException("watch cache is closed");
        }
        String groupVersion = group == null || group.isEmpty() ? version : group + "/" + version;
        APIResourceList served;
        try {
            served = client.getApiResources(groupVersion);
        } catch (KubernetesClientException e) {
            if (ApiErrors.isNotFound(e)) {
                return Optional.empty();
            }
            throw e;
        }
        APIResource resource = served == null || served.getResources() == null ? null
                : served.getResources().stream()
                        .filter(r -> kind.equals(r.getKind()) && r.getName() != null && !r.getName().contains("/"))
                        .findFirst().orElse(null);
        if (resource == null) {
            return Optional.empty();
        }
        ResourceDefinitionContext context = new ResourceDefinitionContext.Builder()
                .withGroup(group == null ? "" : group).withVersion(version).withKind(kind)
                .withPlural(resource.getName()).withNamespaced(Boolean.TRUE.equals(resource.getNamespaced()))
                .build();
        @SuppressWarnings("unchecked")
        InformerResource<GenericKubernetesResource> entry = (InformerResource<GenericKubernetesResource>)
                resources.computeIfAbsent(key, k -> {
                    dynamic.add(k);
                    return createGeneric(context, groupVersion + "/" + kind);
                });
        entry.start();
        return Optional.of(entry);
    }

    static Object genericKey(String group, String version, String kind) {
        return "generic:" + (group == null ? "" : group) + "/" + version + "/" + kind;
    }

    /** The mutation detector, when {@link WatchCacheOptions#mutationDetector()} is on. */
    public Optional<CacheMutationDetector> mutationDetector() {
        return Optional.ofNullable(detector);
    }

    /**
     * With the mutation detector on, throws {@link CacheMutationException} if a cached object was changed
     * in place; without it, does nothing.
     */
    public void checkMutations() {
        if (detector != null) {
            detector.check();
        }
    }

    /** Stops every informer. The cache cannot be used afterwards. */
    @Override
    public void close() {
        closed = true;
        for (InformerResource<?> r : resources.values()) {
            try {
                r.informer().stop();
            } catch (RuntimeException e) {
                LOG.warn("stopping the informer for {} failed", r.kind(), e);
            }
        }
        resources.clear();
        listExecutors.forEach(ExecutorService::shutdownNow);
        if (detector != null) {
            detector.close();
        }
    }

    /** Null (no limit) unless {@link WatchCacheOptions#listPageSize()} asks for pages. */
    private Long pageSize() {
        return options.listPageSize() > 0 ? options.listPageSize() : null;
    }

    /** True the first time a kind is bridged to a Vert.x instance; see {@link CacheEventBus#bridge}. */
    boolean claimBridge(Object vertx, Class<?> type) {
        return bridges.add(List.of(vertx, type));
    }

    @SuppressWarnings("unchecked")
    private <T extends HasMetadata> InformerResource<T> entry(Class<T> type) {
        Objects.requireNonNull(type, "type");
        if (closed) {
            throw new IllegalStateException("watch cache is closed");
        }
        return (InformerResource<T>) resources.computeIfAbsent(type, t -> create(type));
    }

    private InformerResource<GenericKubernetesResource> createGeneric(ResourceDefinitionContext context, String kind) {
        boolean namespaced = context.isNamespaceScoped();
        long resyncMs = options.resyncPeriod().toMillis();
        SharedIndexInformer<GenericKubernetesResource> informer = namespaced && options.namespace() != null
                ? client.genericKubernetesResources(context).inNamespace(options.namespace()).withLimit(pageSize()).runnableInformer(resyncMs)
                : client.genericKubernetesResources(context).inAnyNamespace().withLimit(pageSize()).runnableInformer(resyncMs);
        return configure(GenericKubernetesResource.class, kind, namespaced, informer, null, null);
    }

    private <T extends HasMetadata> InformerResource<T> create(Class<T> type) {
        String kind = HasMetadata.getApiVersion(type) + "/" + HasMetadata.getKind(type);
        boolean namespaced = Namespaced.class.isAssignableFrom(type);
        long resyncMs = options.resyncPeriod().toMillis();
        ShardCacheScope scope = shardScope;
        if (scope != null && namespaced && scope.filters(type)) {
            return createSharded(type, kind, scope, resyncMs);
        }
        SharedIndexInformer<T> informer = namespaced && options.namespace() != null
                ? client.resources(type).inNamespace(options.namespace()).withLimit(pageSize()).runnableInformer(resyncMs)
                : client.resources(type).inAnyNamespace().withLimit(pageSize()).runnableInformer(resyncMs);
        return configure(type, kind, namespaced, informer, null, null);
    }

    /**
     * A kind cached per shard: its informer lists only the covered shards' namespaces (a {@link ShardListerWatcher}
     * in front of the same cluster-wide resource operation {@code runnableInformer} would use, on the client's
     * executor as {@code runnableInformer} does), and a gained shard is filled namespace by namespace. With the cache
     * limited to one namespace, the informer is that namespace's as for any kind.
     */
    @SuppressWarnings("unchecked")
    private <T extends HasMetadata> InformerResource<T> createSharded(Class<T> type, String kind,
                                                                      ShardCacheScope scope, long resyncMs) {
        long limit = options.listPageSize() > 0 ? options.listPageSize() : FILL_PAGE_SIZE;
        NamespacedLister<T> lister = new ClientNamespacedLister<>(client, type, options.namespace(), limit);
        ItemStore<T> inner = lean != null ? new LeanItemStore<>(lean) : new BasicItemStore<>(Cache::metaNamespaceKeyFunc);
        ShardedItemStore<T> sharded = new ShardedItemStore<>(kind, scope.count(), inner);
        SharedIndexInformer<T> informer;
        if (options.namespace() != null) {
            informer = client.resources(type).inNamespace(options.namespace()).withLimit(pageSize())
                    .runnableInformer(resyncMs);
        } else {
            // The resource operation is fabric8's own ListerWatcher (what runnableInformer hands its informer).
            ListerWatcher<T, KubernetesResourceList<T>> cluster = (ListerWatcher<T, KubernetesResourceList<T>>)
                    (Object) client.resources(type).inAnyNamespace().withLimit(pageSize());
            ExecutorService listThread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "shard-list-" + HasMetadata.getKind(type));
                t.setDaemon(true);
                return t;
            });
            listExecutors.add(listThread);
            informer = new DefaultSharedIndexInformer<>(type,
                    new ShardListerWatcher<>(cluster, lister, sharded, listThread), resyncMs,
                    client.adapt(BaseClient.class).getExecutor());
        }
        return configure(type, kind, true, informer, sharded, lister);
    }

    /** Objects per page when a gained shard is listed into the cache (whole lists of a million pods are too big). */
    static final long FILL_PAGE_SIZE = 500;

    @SuppressWarnings("unchecked")
    private <T extends HasMetadata> InformerResource<T> configure(Class<T> type, String kind, boolean namespaced,
                                                                   SharedIndexInformer<T> informer,
                                                                   ShardedItemStore<T> sharded,
                                                                   NamespacedLister<T> shardLister) {
        Counter retries = Counter.builder(RETRY_METRIC)
                .description("List/watch failures after which an informer retried")
                .tag("kind", kind)
                .register(registry);
        informer.exceptionHandler((isStarted, t) -> {
            retries.increment();
            LOG.warn("informer for {} failed ({}), retrying with backoff: {}", kind,
                    isStarted ? "while watching" : "before its first sync", t.toString());
            return true;
        });
        ItemStore<T> store = lean != null ? new LeanItemStore<>(lean) : null;
        if (sharded != null) {
            // fabric8 7.8's DefaultSharedIndexInformer indexes with a CacheImpl, whose lock guards every put and remove.
            sharded.attach((CacheImpl<T>) informer.getIndexer());
            store = sharded;
        }
        if (store != null) {
            informer.itemStore(store);
        }
        InformerResource<T> resource = new InformerResource<>(type, kind, namespaced, informer,
                sharded == null ? null : sharded::indexFunction);
        ItemStore<T> counted = store;
        Gauge.builder(OBJECTS_METRIC, informer, i -> counted != null ? counted.size() : i.getIndexer().listKeys().size())
                .description("Objects the shared informer of a kind holds").tag("kind", kind).register(registry);
        resource.addIndex(Indexes.OWNER_UID, (Function<T, List<String>>) (Function<?, ?>) Indexes.OWNER_UIDS);
        resource.addIndex(Indexes.ORPHAN_NAMESPACE, (Function<T, List<String>>) (Function<?, ?>) Indexes.ORPHAN_NAMESPACES);
        if (type == Pod.class) {
            resource.addIndex(Indexes.NODE_NAME, (Function<T, List<String>>) (Function<?, ?>) Indexes.POD_NODE_NAME);
        }
        if (detector != null) {
            informer.addEventHandler(detector.handlerFor(kind, informer.getStore()));
        }
        if (sharded != null) {
            shardScope.register(type, sharded, shardLister);
        }
        informer.stopped().whenComplete((v, t) -> {
            if (t != null && !closed) {
                LOG.error("informer for {} stopped unexpectedly", kind, t);
            }
        });
        LOG.debug("created the shared informer for {} (namespace {}, resync {})", kind,
                namespaced && options.namespace() != null ? options.namespace() : "all", options.resyncPeriod());
        return resource;
    }

}
