package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListMeta;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager;
import io.fabric8.kubernetes.client.informers.impl.ListerWatcher;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The list and watch of a kind cached per shard, for fabric8's informer: the list holds only the namespaces of the
 * shards covered when it starts (the Namespaces, then each namespace's objects), the watch is the cluster-wide one
 * of {@code delegate} behind {@link ShardedItemStore#watching} (the store drops what it does not cover anyway).
 *
 * <p>Paging: the informer's limit is honoured per namespace, and the continue token handed back is ours (which list,
 * which namespace, the server's token in it), so the informer adds one page at a time as with a plain list. The
 * informer's "resourceVersion=0" (any cached state) is deliberately not passed on: each namespace is read as it is
 * now, which the marks need. The last page carries the Namespaces' resourceVersion, the oldest of the lists: the
 * watch starts there and the store's marks drop what the later namespace lists already hold. An empty covered set
 * lists only the Namespaces: an empty list at a valid resourceVersion.
 *
 * <p>A relist (after 410 Gone) is a new list from the first page: it forgets the marks and lists every covered
 * namespace again, so the informer's "delete what the list lacks" keeps every covered object. From its first page
 * until the informer starts its watch (or the list fails), the store's list lock is held: a gained shard is not
 * filled meanwhile (the informer would delete what such a fill added, its list lacking it).
 */
final class ShardListerWatcher<T extends HasMetadata> implements ListerWatcher<T, KubernetesResourceList<T>> {
    private final ListerWatcher<T, KubernetesResourceList<T>> delegate;
    private final NamespacedLister<T> lister;
    private final ShardedItemStore<T> store;
    /** Where the lists run: they block (HTTP, waiting for a fill), never on the client's own threads. */
    private final Executor executor;
    private final AtomicBoolean holdsLock = new AtomicBoolean();
    /** The list under way (the informer lists one page after another, never two lists at once). */
    private volatile Listing listing;
    private long listings;

    private static final class Listing {
        final long id;
        final List<String> namespaces;
        final String resourceVersion;
        int next;
        String serverToken;

        Listing(long id, List<String> namespaces, String resourceVersion) {
            this.id = id;
            this.namespaces = namespaces;
            this.resourceVersion = resourceVersion;
        }
    }

    ShardListerWatcher(ListerWatcher<T, KubernetesResourceList<T>> delegate, NamespacedLister<T> lister, ShardedItemStore<T> store,
                       Executor executor) {
        this.delegate = delegate;
        this.lister = lister;
        this.store = store;
        this.executor = executor;
    }

    @Override
    public CompletableFuture<KubernetesResourceList<T>> submitList(ListOptions options) {
        try {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return page(options);
                } catch (RuntimeException | Error e) {
                    listing = null;
                    unlock();
                    throw e;
                }
            }, executor);
        } catch (RejectedExecutionException e) {
            // The cache is closing.
            return CompletableFuture.failedFuture(e);
        }
    }

    private KubernetesResourceList<T> page(ListOptions options) {
        String token = options.getContinue();
        Listing l;
        if (token == null || token.isEmpty()) {
            if (!holdsLock.get()) {
                // Only this (single) list thread takes the lock; the flag is set once it is really held.
                store.acquireListing();
                holdsLock.set(true);
            }
            store.clearMarks();
            NamespacedLister.Namespaces all = lister.namespaces();
            l = new Listing(++listings, store.namespacesOf(all.names(), store.covered()), all.resourceVersion());
            listing = l;
        } else {
            l = listing;
            if (l == null || !token.startsWith(l.id + "/")) {
                throw new IllegalStateException("continue token of a list that is over: " + token);
            }
        }
        Long limit = options.getLimit();
        List<T> items = new ArrayList<>();
        // Namespaces without objects are passed over in the same call: a page with nothing in it costs a round trip.
        while (l.next < l.namespaces.size() && items.isEmpty()) {
            String ns = l.namespaces.get(l.next);
            boolean first = l.serverToken == null;
            KubernetesResourceList<T> page = lister.page(ns, limit, l.serverToken);
            ListMeta meta = page.getMetadata();
            if (first) {
                store.mark(ns, ResourceVersions.of(meta == null ? null : meta.getResourceVersion()));
            }
            items.addAll(page.getItems());
            String next = meta == null ? null : meta.getContinue();
            if (next != null && !next.isEmpty()) {
                l.serverToken = next;
            } else {
                l.serverToken = null;
                l.next++;
            }
        }
        DefaultKubernetesResourceList<T> out = new DefaultKubernetesResourceList<>();
        out.setItems(items);
        ListMeta meta = new ListMeta();
        meta.setResourceVersion(l.resourceVersion);
        if (l.next < l.namespaces.size()) {
            meta.setContinue(l.id + "/" + l.next);
        } else {
            listing = null;
        }
        out.setMetadata(meta);
        return out;
    }

    @Override
    public CompletableFuture<AbstractWatchManager<T>> submitWatch(ListOptions params, Watcher<T> watcher) {
        // The informer calls this once its list is in the cache (deleted what it lacked): fills may run again.
        unlock();
        return delegate.submitWatch(params, store.watching(watcher));
    }

    private void unlock() {
        if (holdsLock.compareAndSet(true, false)) {
            store.releaseListing();
        }
    }

    @Override
    public Long getLimit() {
        return delegate.getLimit();
    }

    @Override
    public int getWatchReconnectInterval() {
        return delegate.getWatchReconnectInterval();
    }

    @Override
    public String getApiEndpointPath() {
        return delegate.getApiEndpointPath();
    }

    @Override
    public Config getConfig() {
        return delegate.getConfig();
    }
}
