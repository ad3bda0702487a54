package dev.kruisevertx.cache;

import dev.kruisevertx.controller.Shards;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
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

    @Test
    void aFillAddsOnlyWhatTheWatchHasNotMentionedSinceTheGain() {
        store.beginFill(Set.of(1));
        // The watch, now keeping shard 1, delivers a newer "c" and deletes "d" before the list's page is added.
        cache.put(pod(NS1, "c", "n1", "9"));
        cache.remove(pod(NS1, "d", "n1", "5"));
        int added = store.fill(List.of(pod(NS1, "b", "n1", "4"), pod(NS1, "c", "n1", "8"), pod(NS1, "d", "n1", "5"),
                pod(NS0, "e", "n1", "4")));
        store.endFill();
        assertEquals(1, added, "only b: c is newer from the watch, d was deleted, e is not of the gained shard");
        assertEquals("9", cache.getByKey(NS1 + "/c").getMetadata().getResourceVersion());
        assertNull(cache.getByKey(NS1 + "/d"));
        assertNull(cache.getByKey(NS0 + "/e"), "shard 0 objects come from the watch, not from a fill of shard 1");
        assertEquals(Set.of("b", "c"), Set.copyOf(cache.byIndex(Indexes.NAMESPACE, NS1).stream()
                .map(p -> p.getMetadata().getName()).toList()));
        assertTrue(cache.byIndex(Indexes.NODE_NAME, "n1").stream().allMatch(p -> p != null));
    }

    @Test
    void aPagedFillFollowsContinueTokens() {
        List<io.fabric8.kubernetes.api.model.PodList> pages = List.of(
                new io.fabric8.kubernetes.api.model.PodListBuilder().withNewMetadata().withContinue("t1").endMetadata()
                        .withItems(pod(NS1, "p1", "n1", "1")).build(),
                new io.fabric8.kubernetes.api.model.PodListBuilder().withNewMetadata().endMetadata()
                        .withItems(pod(NS1, "p2", "n1", "2"), pod(NS0, "p3", "n1", "3")).build());
        List<String> tokens = new java.util.ArrayList<>();
        int added = store.fillFrom(Set.of(1), token -> {
            tokens.add(String.valueOf(token));
            return pages.get(token == null ? 0 : 1);
        });
        assertEquals(2, added);
        assertEquals(List.of("null", "t1"), tokens);
        assertEquals(Set.of(0, 1), store.covered());
    }
}
