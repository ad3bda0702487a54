package dev.kruisevertx.cache;

import dev.kruisevertx.controller.Shards;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sharded store inside fabric8's own {@link CacheImpl}, driven as the informer's processor store drives it: what
 * it drops is in no index, a dropped put reads as "unchanged" (no event), and gains and losses keep indexes exact.
 */
class ShardedItemStoreTest {
    static final String NS0 = namespaceIn(0, 2);
    static final String NS1 = namespaceIn(1, 2);

    private CacheImpl<Pod> cache;
    private ShardedItemStore<Pod> store;

    static String namespaceIn(int shard, int count) {
        for (int i = 0; ; i++) {
            String ns = "ns-" + i;
            if (Shards.shardOf(ns, count) == shard) {
                return ns;
            }
        }
    }

    static Pod pod(String ns, String name, String node, String rv) {
        return new PodBuilder().withNewMetadata().withNamespace(ns).withName(name).withResourceVersion(rv)
                .endMetadata().withNewSpec().withNodeName(node).endSpec().build();
    }

    @BeforeEach
    void setUp() {
        cache = new CacheImpl<>();
        store = new ShardedItemStore<>("v1/Pod", 2, new BasicItemStore<>(Cache::metaNamespaceKeyFunc));
        cache.setItemStore(store);
        store.attach(cache);
        // As InformerResource does for a sharded kind: every index, the namespace one included, goes through it.
        cache.removeIndexer(Indexes.NAMESPACE);
        cache.addIndexers(Map.of(Indexes.NAMESPACE, store.indexFunction(Cache::metaNamespaceIndexFunc),
                Indexes.NODE_NAME, store.indexFunction(Indexes.POD_NODE_NAME::apply)));
        store.beginFill(Set.of(0));
        store.endFill();
    }

    @Test
    void anObjectOutsideTheCoveredShardsIsNeitherStoredNorIndexedAndReadsAsUnchanged() {
        Pod kept = pod(NS0, "a", "n1", "1");
        Pod dropped = pod(NS1, "b", "n1", "2");
        assertNull(cache.put(kept), "a new kept object: no old one, so the processor store raises ADD");
        // The processor store raises no event when put returns an old object of the same resourceVersion.
        assertSame(dropped, cache.put(dropped));
        assertEquals(List.of(kept), cache.list());
        assertEquals(List.of(kept), cache.byIndex(Indexes.NODE_NAME, "n1"));
        assertEquals(List.of(), cache.byIndex(Indexes.NAMESPACE, NS1));
        assertNull(cache.getByKey(NS1 + "/b"));
        assertNull(cache.remove(dropped), "a delete of a key never stored raises no DELETE");
        assertEquals(1, store.size());
    }

    @Test
    void losingAShardTakesItsObjectsOutOfStoreAndIndexes() {
        store.beginFill(Set.of(1));
        store.endFill();
        cache.put(pod(NS0, "a", "n1", "1"));
        cache.put(pod(NS1, "b", "n1", "2"));
        assertEquals(2, cache.byIndex(Indexes.NODE_NAME, "n1").size());

        assertEquals(1, store.drop(Set.of(1)));
        assertEquals(Set.of(0), store.covered());
        assertEquals(List.of(NS0 + "/a"), cache.listKeys());
        assertEquals(List.of(NS0 + "/a"), cache.byIndex(Indexes.NODE_NAME, "n1").stream()
                .map(p -> p.getMetadata().getNamespace() + "/" + p.getMetadata().getName()).toList());
        assertEquals(List.of(), cache.byIndex(Indexes.NAMESPACE, NS1));
        // Winning it back: its index entries start from nothing (none stale left behind).
        store.beginFill(Set.of(1));
        store.endFill();
        assertEquals(List.of(), cache.byIndex(Indexes.NAMESPACE, NS1));
        cache.put(pod(NS1, "b", "n2", "3"));
        assertEquals(1, cache.byIndex(Indexes.NODE_NAME, "n1").size());
        assertEquals(1, cache.byIndex(Indexes.NODE_NAME, "n2").size());
    }

    /** The watch as fabric8's processor store applies it (put or remove through the cache), counting the events. */
    private final List<String> events = new java.util.ArrayList<>();
    private final Watcher<Pod> applied = new Watcher<>() {
        @Override
        public void eventReceived(Action action, Pod pod) {
            Pod old = action == Action.DELETED ? cache.remove(pod) : cache.put(pod);
            if (action == Action.DELETED ? old != null : old == null || !java.util.Objects.equals(
                    old.getMetadata().getResourceVersion(), pod.getMetadata().getResourceVersion())) {
                events.add(action + " " + pod.getMetadata().getName() + "@" + pod.getMetadata().getResourceVersion());
            }
        }

        @Override
        public void onClose(WatcherException cause) {
        }
    };

    private void watch(Watcher.Action action, Pod pod) {
        store.watching(applied).eventReceived(action, pod);
    }

    private String rvOf(String ns, String name) {
        Pod p = cache.getByKey(ns + "/" + name);
        return p == null ? null : p.getMetadata().getResourceVersion();
    }

    @Test
    void aFillKeepsWhatTheWatchSaidAfterTheListedStateAndTakesTheListForTheRest() {
        store.beginFill(Set.of(1));
        // Before the page: the watch delivers a newer "c", deletes "d" (after the listed state), and an older "f".
        watch(Watcher.Action.MODIFIED, pod(NS1, "c", "n1", "9"));
        watch(Watcher.Action.DELETED, pod(NS1, "d", "n1", "6"));
        watch(Watcher.Action.ADDED, pod(NS1, "f", "n1", "3"));
        int added = store.fill(NS1, "8", List.of(pod(NS1, "b", "n1", "4"), pod(NS1, "c", "n1", "8"),
                pod(NS1, "d", "n1", "5"), pod(NS1, "f", "n1", "7"), pod(NS0, "e", "n1", "4")));
        store.endFill();
        assertEquals(2, added, "b, and f's listed state (newer than the watch's): c is newer from the watch, d was"
                + " deleted after its listed state, e is not of the namespace listed");
        assertEquals("9", rvOf(NS1, "c"));
        assertEquals("7", rvOf(NS1, "f"));
        assertNull(cache.getByKey(NS1 + "/d"));
        assertNull(cache.getByKey(NS0 + "/e"), "shard 0 objects come from the watch, not from a fill of shard 1");
        assertEquals(Set.of("b", "c", "f"), Set.copyOf(cache.byIndex(Indexes.NAMESPACE, NS1).stream()
                .map(p -> p.getMetadata().getName()).toList()));
        // The watch now replays f's change at 7 (the list holds it): dropped, no event, no regression.
        events.clear();
        watch(Watcher.Action.MODIFIED, pod(NS1, "f", "n1", "7"));
        assertEquals(List.of(), events);
    }

    @Test
    void anObjectTheWatchAddedBeforeTheListAndTheListLacksWasDeletedAndGoesAtTheEndOfTheFill() {
        store.beginFill(Set.of(1));
        watch(Watcher.Action.ADDED, pod(NS1, "gone", "n1", "3"));
        watch(Watcher.Action.ADDED, pod(NS1, "new", "n1", "12"));
        // Listed at 10: "gone" was deleted at or before 10 (its DELETED, at or below the mark, would be no help).
        store.fill(NS1, "10", List.of(pod(NS1, "b", "n1", "4")));
        store.endFill();
        assertNull(cache.getByKey(NS1 + "/gone"));
        assertEquals(List.of(), cache.byIndex(Indexes.NODE_NAME, "n1").stream()
                .filter(p -> p.getMetadata().getName().equals("gone")).toList());
        assertEquals("12", rvOf(NS1, "new"), "created after the list: stays");
        assertEquals("4", rvOf(NS1, "b"));
    }

    @Test
    void theWatchReplayingFromTheOldestListChangesNothingTheNamespaceListsHold() {
        // The informer listed NS0 at 10 and NS1 at 20 (in that order); its watch starts at 10. Between the lists, in
        // NS1: x deleted (12) and re-created with the same name (15), g created (13) and deleted (14), y changed (11,
        // then 18). The list of NS1 holds x@15 and y@18.
        store.beginFill(Set.of(1));
        store.endFill();
        store.clearMarks();
        store.mark(NS0, 10);
        store.mark(NS1, 20);
        cache.put(pod(NS0, "a", "n1", "9"));
        cache.put(pod(NS1, "x", "n1", "15"));
        cache.put(pod(NS1, "y", "n1", "18"));
        watch(Watcher.Action.MODIFIED, pod(NS1, "y", "n1", "11"));
        watch(Watcher.Action.DELETED, pod(NS1, "x", "n1", "12"));
        watch(Watcher.Action.ADDED, pod(NS1, "g", "n1", "13"));
        watch(Watcher.Action.DELETED, pod(NS1, "g", "n1", "14"));
        watch(Watcher.Action.ADDED, pod(NS1, "x", "n1", "15"));
        watch(Watcher.Action.MODIFIED, pod(NS0, "a", "n1", "16"));
        watch(Watcher.Action.MODIFIED, pod(NS1, "y", "n1", "18"));
        assertEquals(List.of("MODIFIED a@16"), events, "only NS0's change after its list is news");
        assertEquals("15", rvOf(NS1, "x"));
        assertEquals("18", rvOf(NS1, "y"));
        assertNull(cache.getByKey(NS1 + "/g"), "no ghost");
        assertEquals(1, store.marksHeld(), "NS0's mark is passed (the watch is at 18), NS1's is not");
        // Past every mark: changes apply and the marks are forgotten.
        watch(Watcher.Action.MODIFIED, pod(NS1, "y", "n1", "21"));
        watch(Watcher.Action.DELETED, pod(NS1, "x", "n1", "22"));
        assertEquals(List.of("MODIFIED a@16", "MODIFIED y@21", "DELETED x@22"), events);
        assertEquals(0, store.marksHeld());
        assertEquals(Set.of(NS0 + "/a", NS1 + "/y"), Set.copyOf(cache.listKeys()));
    }

    @Test
    void resourceVersionsThatAreNotNumbersAreNotComparedAndTheWatchApplies() {
        store.beginFill(Set.of(1));
        store.endFill();
        store.mark(NS1, 20);
        cache.put(pod(NS1, "x", "n1", "abc"));
        watch(Watcher.Action.MODIFIED, pod(NS1, "x", "n1", "abd"));
        assertEquals("abd", rvOf(NS1, "x"));
        watch(Watcher.Action.DELETED, pod(NS1, "x", "n1", "abe"));
        assertNull(cache.getByKey(NS1 + "/x"));
    }

    /** A scripted API server: namespaces and per-namespace pages (the continue token is the page's index). */
    static class ScriptedLister implements NamespacedLister<Pod> {
        final List<String> namespaces;
        final Map<String, List<io.fabric8.kubernetes.api.model.PodList>> pages;
        final List<String> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
        final String namespacesRv;

        ScriptedLister(String namespacesRv, List<String> namespaces,
                       Map<String, List<io.fabric8.kubernetes.api.model.PodList>> pages) {
            this.namespacesRv = namespacesRv;
            this.namespaces = namespaces;
            this.pages = pages;
        }

        @Override
        public Namespaces namespaces() {
            calls.add("namespaces");
            return new Namespaces(namespaces, namespacesRv);
        }

        @Override
        public io.fabric8.kubernetes.api.model.PodList page(String namespace, Long limit, String continueToken) {
            calls.add(namespace + ":" + continueToken);
            List<io.fabric8.kubernetes.api.model.PodList> ps = pages.getOrDefault(namespace, List.of());
            if (ps.isEmpty()) {
                return new io.fabric8.kubernetes.api.model.PodListBuilder().withNewMetadata().withResourceVersion("1")
                        .endMetadata().build();
            }
            return ps.get(continueToken == null ? 0 : Integer.parseInt(continueToken));
        }

        @Override
        public long fillPageSize() {
            return 500;
        }
    }

    static io.fabric8.kubernetes.api.model.PodList page(String rv, String next, Pod... pods) {
        return new io.fabric8.kubernetes.api.model.PodListBuilder().withNewMetadata().withResourceVersion(rv)
                .withContinue(next).endMetadata().withItems(pods).build();
    }

    @Test
    void aPagedFillListsOnlyTheGainedShardsNamespacesAndFollowsContinueTokens() {
        String ns1b = null;
        for (int i = 0; ns1b == null; i++) {
            if (Shards.shardOf("other-" + i, 2) == 1) {
                ns1b = "other-" + i;
            }
        }
        ScriptedLister lister = new ScriptedLister("5", List.of(NS0, NS1, ns1b), Map.of(
                NS1, List.of(page("7", "1", pod(NS1, "p1", "n1", "6")), page("8", null, pod(NS1, "p2", "n1", "6"))),
                ns1b, List.of(page("9", null, pod(ns1b, "p3", "n1", "6"))),
                NS0, List.of(page("9", null, pod(NS0, "never", "n1", "6")))));
        int added = store.fillFrom(Set.of(1), lister);
        assertEquals(3, added);
        assertEquals(List.of("namespaces", NS1 + ":null", NS1 + ":1", ns1b + ":null"), lister.calls,
                "NS0 is not of the gained shard: never listed");
        assertEquals(Set.of(0, 1), store.covered());
        assertTrue(store.holdsAll(NS1));
        assertNull(cache.getByKey(NS0 + "/never"));
    }

    @Test
    void aShardDroppedWhileItIsBeingFilledKeepsNothingOfIt() {
        ScriptedLister lister = new ScriptedLister("5", List.of(NS1), Map.of(NS1, List.of(
                page("7", "1", pod(NS1, "p1", "n1", "6")), page("8", null, pod(NS1, "p2", "n1", "6"))))) {
            @Override
            public io.fabric8.kubernetes.api.model.PodList page(String namespace, Long limit, String continueToken) {
                if (continueToken != null) {
                    store.drop(Set.of(1));
                }
                return super.page(namespace, limit, continueToken);
            }
        };
        store.fillFrom(Set.of(1), lister);
        assertEquals(Set.of(0), store.covered());
        assertEquals(List.of(), cache.listKeys());
        assertEquals(List.of(), cache.byIndex(Indexes.NODE_NAME, "n1"));
        assertEquals(List.of(), cache.byIndex(Indexes.NAMESPACE, NS1));
    }
    @Test
    void aFillStopsListingAShardOnceItIsNoLongerWantedAndNamesItAbandoned() {
        String ns1b = null;
        for (int i = 0; ns1b == null; i++) {
            if (Shards.shardOf("other-" + i, 2) == 1 && ("other-" + i).compareTo(NS1) > 0) {
                ns1b = "other-" + i;
            }
        }
        java.util.concurrent.atomic.AtomicBoolean wanted = new java.util.concurrent.atomic.AtomicBoolean(true);
        String second = ns1b;
        ScriptedLister lister = new ScriptedLister("5", List.of(NS1, ns1b), Map.of(
                NS1, List.of(page("7", null, pod(NS1, "p1", "n1", "6"))),
                ns1b, List.of(page("9", null, pod(ns1b, "p3", "n1", "6"))))) {
            @Override
            public io.fabric8.kubernetes.api.model.PodList page(String namespace, Long limit, String continueToken) {
                // The shard is lost while its first namespace is being listed.
                wanted.set(false);
                return super.page(namespace, limit, continueToken);
            }
        };
        Set<Integer> abandoned = new java.util.TreeSet<>();
        store.fillFrom(Set.of(1), lister, shard -> wanted.get(), abandoned);
        assertEquals(Set.of(1), abandoned);
        assertEquals(List.of("namespaces", NS1 + ":null"), lister.calls, second + " is never listed");
        assertEquals(1, store.drop(abandoned), "the half-listed shard's pod leaves with it");
        assertEquals(Set.of(0), store.covered());
        assertEquals(List.of(), cache.listKeys());
    }
}
