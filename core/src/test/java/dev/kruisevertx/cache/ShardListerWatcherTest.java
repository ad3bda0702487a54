package dev.kruisevertx.cache;

import dev.kruisevertx.controller.Shards;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.impl.ListerWatcher;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static dev.kruisevertx.cache.ShardedItemStoreTest.NS0;
import static dev.kruisevertx.cache.ShardedItemStoreTest.NS1;
import static dev.kruisevertx.cache.ShardedItemStoreTest.page;
import static dev.kruisevertx.cache.ShardedItemStoreTest.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The informer's list of a kind cached per shard, as fabric8's Reflector drives it (first page, continue tokens, then
 * the watch), against a scripted API server: only covered namespaces, paging, the resourceVersion the watch starts
 * from, relists, and no fill while the informer's list is on.
 */
class ShardListerWatcherTest {
    static final String NS1B = otherNamespaceIn(1);

    private final ExecutorService listThread = Executors.newSingleThreadExecutor();
    private CacheImpl<Pod> cache;
    private ShardedItemStore<Pod> store;
    private final List<Watcher<Pod>> watches = new ArrayList<>();

    static String otherNamespaceIn(int shard) {
        for (int i = 0; ; i++) {
            if (Shards.shardOf("other-" + i, 2) == shard) {
                return "other-" + i;
            }
        }
    }

    /** The cluster-wide operation: only its watch is used. */
    private final ListerWatcher<Pod, KubernetesResourceList<Pod>> cluster = new ListerWatcher<>() {
        @Override
        public CompletableFuture<AbstractWatchManager<Pod>> submitWatch(ListOptions params, Watcher<Pod> watcher) {
            watches.add(watcher);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<KubernetesResourceList<Pod>> submitList(ListOptions listOptions) {
            throw new AssertionError("the cluster-wide list must not be used");
        }

        @Override
        public Long getLimit() {
            return 1L;
        }

        @Override
        public int getWatchReconnectInterval() {
            return 1000;
        }

        @Override
        public String getApiEndpointPath() {
            return "pods";
        }

        @Override
        public Config getConfig() {
            return null;
        }
    };

    private final ShardedItemStoreTest.ScriptedLister lister = new ShardedItemStoreTest.ScriptedLister("5",
            List.of(NS0, NS1, NS1B), Map.of(
                    NS0, List.of(page("9", null, pod(NS0, "never", "n1", "6"))),
                    NS1, List.of(page("7", "1", pod(NS1, "p1", "n1", "6")), page("8", null, pod(NS1, "p2", "n1", "6"))),
                    NS1B, List.of(page("9", null, pod(NS1B, "p3", "n1", "6")))));
    private ShardListerWatcher<Pod> lw;

    @BeforeEach
    void setUp() {
        cache = new CacheImpl<>();
        store = new ShardedItemStore<>("v1/Pod", 2, new BasicItemStore<>(Cache::metaNamespaceKeyFunc));
        cache.setItemStore(store);
        store.attach(cache);
        lw = new ShardListerWatcher<>(cluster, lister, store, listThread);
    }

    @AfterEach
    void tearDown() {
        listThread.shutdownNow();
    }

    private KubernetesResourceList<Pod> list(String token) throws Exception {
        return lw.submitList(new ListOptionsBuilder().withLimit(lw.getLimit()).withContinue(token)
                .withResourceVersion(token == null ? "0" : null).build()).get(30, TimeUnit.SECONDS);
    }

    /** Every page as the Reflector asks for them; returns the names listed and the last page's resourceVersion. */
    private String listAll(List<String> names) throws Exception {
        String token = null;
        KubernetesResourceList<Pod> page;
        do {
            page = list(token);
            page.getItems().forEach(p -> names.add(p.getMetadata().getName()));
            token = page.getMetadata().getContinue();
        } while (token != null);
        return page.getMetadata().getResourceVersion();
    }

    @Test
    void theListHoldsOnlyTheCoveredNamespacesPageByPageAndEndsAtTheNamespacesResourceVersion() throws Exception {
        store.beginFill(Set.of(1));
        store.endFill();
        List<String> names = new ArrayList<>();
        assertEquals("5", listAll(names), "the watch starts from the oldest list: the Namespaces'");
        assertEquals(List.of("p1", "p2", "p3"), names);
        assertEquals(List.of("namespaces", NS1 + ":null", NS1 + ":1", NS1B + ":null"), lister.calls,
                "NS0 is not covered: never listed");
        assertEquals(2, store.marksHeld());
        lw.submitWatch(new ListOptions(), new NoWatcher());
        assertEquals(1, watches.size());
    }

    @Test
    void noCoveredShardListsOnlyTheNamespacesAndGivesAResourceVersionToWatchFrom() throws Exception {
        KubernetesResourceList<Pod> only = list(null);
        assertEquals(List.of(), only.getItems());
        assertNull(only.getMetadata().getContinue());
        assertEquals("5", only.getMetadata().getResourceVersion());
        assertEquals(List.of("namespaces"), lister.calls);
    }

    @Test
    void aRelistListsEveryCoveredNamespaceAgainAndAnOldContinueTokenFails() throws Exception {
        store.beginFill(Set.of(1));
        store.endFill();
        KubernetesResourceList<Pod> first = list(null);
        String stale = first.getMetadata().getContinue();
        List<String> names = new ArrayList<>();
        // 410 Gone: the Reflector lists again from the first page.
        listAll(names);
        assertEquals(List.of("p1", "p2", "p3"), names);
        ExecutionException e = assertThrows(ExecutionException.class, () -> list(stale));
        assertTrue(e.getCause() instanceof IllegalStateException, e.toString());
        // The failed list let go of the list lock: a fill runs.
        store.fillFrom(Set.of(0), lister);
        assertEquals(Set.of(0, 1), store.covered());
    }

    @Test
    void aShardGainedDuringTheInformersListIsFilledOnlyOnceItsWatchStarts() throws Exception {
        store.beginFill(Set.of(1));
        store.endFill();
        KubernetesResourceList<Pod> first = list(null);
        Thread filler = new Thread(() -> store.fillFrom(Set.of(0), lister), "filler");
        filler.start();
        MockCluster.await("the fill waits for the informer's list", () ->
                filler.getState() == Thread.State.WAITING || filler.getState() == Thread.State.TIMED_WAITING);
        assertEquals(Set.of(1), store.covered(), "the gain has not begun: the informer's list would delete its pods");
        String token = first.getMetadata().getContinue();
        while (token != null) {
            token = list(token).getMetadata().getContinue();
        }
        assertTrue(filler.isAlive());
        // The Reflector starts the watch once the list is in its cache.
        lw.submitWatch(new ListOptions(), new NoWatcher());
        filler.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(filler.isAlive());
        assertEquals(Set.of(0, 1), store.covered());
        assertEquals("6", cache.getByKey(NS0 + "/never").getMetadata().getResourceVersion());
    }

    private static final class NoWatcher implements Watcher<Pod> {
        @Override
        public void eventReceived(Action action, Pod resource) {
        }

        @Override
        public void onClose(WatcherException cause) {
        }
    }
}
