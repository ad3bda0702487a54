package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** The one shared informer of a kind, with the bookkeeping the {@link WatchCache} needs around it. */
final class InformerResource<T extends HasMetadata> implements CachedResource<T> {
    private static final Logger LOG = LoggerFactory.getLogger(InformerResource.class);

    private final Class<T> type;
    private final String kind;
    private final SharedIndexInformer<T> informer;
    private final Map<String, Function<T, List<String>>> indexes = new HashMap<>();
    private final List<ListenerAdapter<T>> adapters = new CopyOnWriteArrayList<>();
    private final boolean namespaced;
    private CompletableFuture<Void> started;
    private volatile boolean namespaceIndexReplaced;
    /** For a kind cached per shard: makes an index function index nothing for objects the store drops. */
    private final UnaryOperator<Function<T, List<String>>> indexWrapper;

    InformerResource(Class<T> type, String kind, boolean namespaced, SharedIndexInformer<T> informer) {
        this(type, kind, namespaced, informer, null);
    }

    InformerResource(Class<T> type, String kind, boolean namespaced, SharedIndexInformer<T> informer,
                     UnaryOperator<Function<T, List<String>>> indexWrapper) {
        this.type = type;
        this.kind = kind;
        this.namespaced = namespaced;
        this.informer = informer;
        this.indexWrapper = indexWrapper == null ? UnaryOperator.identity() : indexWrapper;
        if (indexWrapper != null) {
            // fabric8's own namespace index would record the objects the sharded store drops.
            informer.removeNamespaceIndex();
            informer.addIndexers(Map.of(Indexes.NAMESPACE, this.indexWrapper.apply(Cache::metaNamespaceIndexFunc)));
        }
    }

    static String keyOf(HasMetadata obj) {
        return Cache.metaNamespaceKeyFunc(obj);
    }

    String kind() {
        return kind;
    }

    synchronized void addIndex(String name, Function<T, List<String>> fn) {
        Function<T, List<String>> existing = indexes.get(name);
        if (existing == fn) {
            return;
        }
        boolean replacesNamespaceIndex = existing == null && Indexes.NAMESPACE.equals(name) && !namespaced;
        if (existing != null || (Indexes.NAMESPACE.equals(name) && namespaced)) {
            throw new IllegalArgumentException("index \"" + name + "\" of " + kind
                    + " is already registered with a different function");
        }
        if (started != null) {
            throw new IllegalStateException("index \"" + name + "\" of " + kind
                    + " must be added before the informer starts");
        }
        if (replacesNamespaceIndex) {
            // Cluster-scoped kinds have no namespace; OpenKruise reuses the name for SidecarSet's
            // target-namespace index, so the built-in one gives way.
            informer.removeNamespaceIndex();
            namespaceIndexReplaced = true;
        }
        informer.addIndexers(Map.of(name, indexWrapper.apply(fn)));
        indexes.put(name, fn);
    }

    synchronized CompletionStage<Void> start() {
        if (started == null) {
            LOG.info("starting the shared informer for {}", kind);
            started = informer.start().toCompletableFuture();
            started.whenComplete((v, e) -> {
                if (e == null) {
                    LOG.info("informer for {} synced ({} objects)", kind, informer.getIndexer().list().size());
                }
            });
        }
        return started.minimalCompletionStage();
    }

    synchronized boolean isStarted() {
        return started != null;
    }

    @Override
    public T get(String namespace, String name) {
        String key = namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
        return informer.getIndexer().getByKey(key);
    }

    @Override
    public List<T> list() {
        return informer.getIndexer().list();
    }

    @Override
    public List<T> list(String namespace) {
        if (namespace == null || namespaceIndexReplaced) {
            return informer.getIndexer().list().stream()
                    .filter(o -> java.util.Objects.equals(namespace, o.getMetadata().getNamespace()))
                    .toList();
        }
        return informer.getIndexer().byIndex(Indexes.NAMESPACE, namespace);
    }

    @Override
    public List<T> byIndex(String indexName, String value) {
        if (!informer.getIndexer().getIndexers().containsKey(indexName)) {
            throw new IllegalArgumentException("no index \"" + indexName + "\" on " + kind
                    + "; register it with WatchCache.addIndex before the informer starts");
        }
        return informer.getIndexer().byIndex(indexName, value);
    }

    @Override
    public void addListener(CacheListener<T> listener) {
        boolean synced = informer.hasSynced();
        ListenerAdapter<T> adapter = new ListenerAdapter<>(kind, listener, synced,
                synced ? informer.getIndexer().listKeys() : List.of());
        adapters.add(adapter);
        informer.addEventHandler(adapter);
    }

    @Override
    public void removeListener(CacheListener<T> listener) {
        for (ListenerAdapter<T> adapter : adapters) {
            if (adapter.listener == listener) {
                adapters.remove(adapter);
                informer.removeEventHandler(adapter);
            }
        }
    }

    @Override
    public boolean hasSynced() {
        return informer.hasSynced();
    }

    @Override
    public boolean isWatching() {
        return informer.isWatching();
    }

    @Override
    public SharedIndexInformer<T> informer() {
        return informer;
    }

    Class<T> type() {
        return type;
    }
}
