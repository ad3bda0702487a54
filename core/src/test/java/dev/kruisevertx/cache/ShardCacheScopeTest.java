package dev.kruisevertx.cache;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.kruisevertx.cache.MockCluster.await;
import static dev.kruisevertx.cache.MockCluster.pod;
import static dev.kruisevertx.cache.ShardedItemStoreTest.NS0;
import static dev.kruisevertx.cache.ShardedItemStoreTest.NS1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pods cached per shard by a real informer against the CRUD mock API server: events, indexes, gain and loss. */
class ShardCacheScopeTest {
    private MockCluster cluster;
    private WatchCache cache;
    private ShardCacheScope scope;
    private SimpleMeterRegistry registry;

    /** Counts the pods the API server sent in list answers, and which pod lists were asked for. */
    static final class CountingDispatcher extends KubernetesCrudDispatcher {
        final AtomicLong podsListed = new AtomicLong();
        final List<String> podLists = new CopyOnWriteArrayList<>();

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            MockResponse response = super.dispatch(request);
            String path = request.getPath();
            String resource = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
            if ("GET".equals(request.getMethod()) && resource.endsWith("/pods") && !path.contains("watch=true")
                    && response.getBody() != null) {
                podLists.add(resource);
                JsonNode items = Serialization.unmarshal(new String(response.getBody().getBytes(),
                        StandardCharsets.UTF_8), JsonNode.class).path("items");
                podsListed.addAndGet(items.size());
            }
            return response;
        }
    }

    private CountingDispatcher served;

    @BeforeEach
    void setUp() {
        served = new CountingDispatcher();
        cluster = MockCluster.crud(served);
        registry = new SimpleMeterRegistry();
        // A replica lists the Namespaces to know which to list pods in; an API server only holds pods of existing ones.
        for (String ns : List.of(NS0, NS1)) {
            cluster.client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata()
                    .build()).create();
        }
    }

    @AfterEach
    void tearDown() {
        if (cache != null) {
            // Never close a watch while the mock still sends on it (see MockCluster.settlePods).
            if (scope.caches(Pod.class, NS0)) {
                cluster.settlePods(cache.resource(Pod.class), NS0);
            } else {
                cluster.settlePods(cache.resource(Pod.class), NS1);
            }
            cache.close();
            scope.close();
        }
        cluster.close();
    }

    private void newCache(boolean wholeWithShard0) {
        scope = new ShardCacheScope(2, Map.of(Pod.class, wholeWithShard0));
        cache = new WatchCache(cluster.client, WatchCacheOptions.defaults(Map.of()), registry);
        cache.cacheByShard(scope);
    }

    private Pod create(String ns, String name, String node, String ownerUid) {
        return cluster.client.pods().inNamespace(ns).resource(pod(ns, name, node, ownerUid)).create();
    }

    private static void done(java.util.concurrent.CompletionStage<Void> stage) throws Exception {
        stage.toCompletableFuture().get(MockCluster.WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private double cachedPods() {
        return registry.get(WatchCache.OBJECTS_METRIC).tag("kind", "v1/Pod").gauge().value();
    }

    private static Set<String> names(List<Pod> pods) {
        assertTrue(pods.stream().allMatch(p -> p != null), "no nulls in an answer: " + pods);
        return Set.copyOf(pods.stream().map(p -> p.getMetadata().getNamespace() + "/" + p.getMetadata().getName())
                .toList());
    }

    @Test
    void aReplicaCachesOnlyItsShardsPodsAndHearsOnlyOfThem() throws Exception {
        newCache(false);
        create(NS0, "a-0", "n1", "uid-a");
        create(NS1, "b-0", "n1", "uid-b");
        done(scope.gained(Set.of(0)));
        CachedResource<Pod> pods = cache.resource(Pod.class);
        List<CacheEvent<Pod>> events = new CopyOnWriteArrayList<>();
        pods.addListener(events::add);
        done(cache.start(Pod.class));

        assertEquals(Set.of(NS0 + "/a-0"), names(pods.list()));
        assertEquals(Set.of(NS0 + "/a-0"), names(pods.byIndex(Indexes.NODE_NAME, "n1")));
        assertEquals(Set.of(), names(pods.byIndex(Indexes.OWNER_UID, "uid-b")));
        assertEquals(Set.of(), names(pods.list(NS1)));
        assertNull(pods.get(NS1, "b-0"));
        assertEquals(1.0, cachedPods());

        // Changes in the other shard raise nothing; the marker after them proves the watch delivered them first.
        create(NS1, "b-1", "n1", "uid-b");
        cluster.client.pods().inNamespace(NS1).withName("b-0").edit(p -> new PodBuilder(p).editMetadata()
                .addToLabels("touched", "yes").endMetadata().build());
        cluster.client.pods().inNamespace(NS1).withName("b-0").delete();
        create(NS0, "a-1", "n1", "uid-a");
        await("a-1 in the cache", () -> pods.get(NS0, "a-1") != null);
        await("a-1's event", () -> events.stream().anyMatch(e -> e.object().getMetadata().getName().equals("a-1")));
        assertTrue(events.stream().allMatch(e -> NS0.equals(e.object().getMetadata().getNamespace())),
                "events of shard 1 reached a listener: " + events.stream().map(e -> e.type() + " "
                        + e.object().getMetadata().getNamespace() + "/" + e.object().getMetadata().getName()).toList());
        assertEquals(Set.of(NS0 + "/a-0", NS0 + "/a-1"), names(pods.byIndex(Indexes.OWNER_UID, "uid-a")));
        assertEquals(Set.of(), names(pods.byIndex(Indexes.OWNER_UID, "uid-b")));
        assertEquals(2.0, cachedPods());
        assertTrue(scope.caches(Pod.class, NS0));
        assertFalse(scope.caches(Pod.class, NS1));
        assertTrue(scope.caches(ConfigMap.class, NS1), "a kind not in the scope is cached whole");
    }

    @Test
    void aGainListsTheShardInAndALossDropsIt() throws Exception {
        newCache(false);
        create(NS0, "a-0", "n1", "uid-a");
        create(NS1, "b-0", "n1", "uid-b");
        create(NS1, "b-1", "n2", "uid-b");
        done(scope.gained(Set.of(0)));
        CachedResource<Pod> pods = cache.resource(Pod.class);
        done(cache.start(Pod.class));
        assertEquals(1.0, cachedPods());

        done(scope.gained(Set.of(1)));
        assertEquals(Set.of(NS0 + "/a-0", NS1 + "/b-0", NS1 + "/b-1"), names(pods.list()));
        assertEquals(Set.of(NS1 + "/b-0", NS1 + "/b-1"), names(pods.byIndex(Indexes.OWNER_UID, "uid-b")));
        assertEquals(Set.of(NS1 + "/b-1"), names(pods.byIndex(Indexes.NODE_NAME, "n2")));
        assertEquals(3.0, cachedPods());
        // The watch keeps the gained shard current.
        cluster.client.pods().inNamespace(NS1).withName("b-0").delete();
        create(NS1, "b-2", "n2", "uid-b");
        await("b-2 in, b-0 out", () -> pods.get(NS1, "b-2") != null && pods.get(NS1, "b-0") == null);

        done(scope.lost(Set.of(0)));
        assertEquals(Set.of(NS1 + "/b-1", NS1 + "/b-2"), names(pods.list()));
        assertEquals(Set.of(), names(pods.byIndex(Indexes.OWNER_UID, "uid-a")));
        assertEquals(Set.of(), names(pods.byIndex(Indexes.NODE_NAME, "n1")));
        assertEquals(Set.of(), names(pods.list(NS0)));
        assertEquals(2.0, cachedPods());
        // Shard 0 changes are no longer kept.
        create(NS0, "a-1", "n1", "uid-a");
        create(NS1, "b-3", "n1", "uid-b");
        await("b-3 in", () -> pods.get(NS1, "b-3") != null);
        assertNull(pods.get(NS0, "a-1"));
    }

    @Test
    void theHolderOfShardZeroCachesAKindMarkedWholeEntirely() throws Exception {
        newCache(true);
        create(NS0, "a-0", "n1", "uid-a");
        create(NS1, "b-0", "n1", "uid-b");
        done(scope.gained(Set.of(1)));
        CachedResource<Pod> pods = cache.resource(Pod.class);
        done(cache.start(Pod.class));
        assertEquals(Set.of(NS1 + "/b-0"), names(pods.list()));

        done(scope.gained(Set.of(0)));
        assertEquals(Set.of(NS0 + "/a-0", NS1 + "/b-0"), names(pods.list()));
        done(scope.lost(Set.of(1)));
        assertEquals(Set.of(NS0 + "/a-0", NS1 + "/b-0"), names(pods.list()), "shard 0 alone still means every pod");
        done(scope.lost(Set.of(0)));
        assertEquals(Set.of(), names(pods.list()));
        assertEquals(0.0, cachedPods());
        done(scope.gained(Set.of(1)));
        assertEquals(Set.of(NS1 + "/b-0"), names(pods.list()));
    }

    @Test
    void aGainOfShardZeroReportsItsOwnPodsCachedBeforeTheOtherShardsOfAWholeKindAreListed() throws Exception {
        newCache(true);
        create(NS0, "a-0", "n1", "uid-a");
        create(NS1, "b-0", "n1", "uid-b");
        CachedResource<Pod> pods = cache.resource(Pod.class);
        done(cache.start(Pod.class));
        assertEquals(Set.of(), names(pods.list()), "no shard held, no pod cached");

        java.util.concurrent.atomic.AtomicReference<Set<String>> cachedAtOwnStage =
                new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<List<Boolean>> holdsAllAtOwnStage =
                new java.util.concurrent.atomic.AtomicReference<>();
        done(scope.gained(Set.of(0), () -> {
            cachedAtOwnStage.set(names(pods.list()));
            holdsAllAtOwnStage.set(List.of(scope.caches(Pod.class, NS0), scope.caches(Pod.class, NS1)));
        }));
        assertEquals(Set.of(NS0 + "/a-0"), cachedAtOwnStage.get(),
                "the own stage comes once shard 0's pods are in, before shard 1's are listed");
        assertEquals(List.of(true, false), holdsAllAtOwnStage.get(),
                "the webhooks' view: shard 0 complete, shard 1 not yet (read from the API server meanwhile)");
        assertEquals(Set.of(NS0 + "/a-0", NS1 + "/b-0"), names(pods.list()));
        assertTrue(scope.caches(Pod.class, NS1));
    }

    @Test
    void aKindNotCachedWholeHasNothingLeftForTheSecondStage() throws Exception {
        newCache(false);
        create(NS0, "a-0", "n1", "uid-a");
        create(NS1, "b-0", "n1", "uid-b");
        CachedResource<Pod> pods = cache.resource(Pod.class);
        done(cache.start(Pod.class));
        java.util.concurrent.atomic.AtomicReference<Set<String>> cachedAtOwnStage =
                new java.util.concurrent.atomic.AtomicReference<>();
        done(scope.gained(Set.of(0), () -> cachedAtOwnStage.set(names(pods.list()))));
        assertEquals(Set.of(NS0 + "/a-0"), cachedAtOwnStage.get());
        assertEquals(Set.of(NS0 + "/a-0"), names(pods.list()));
    }

    /**
     * The gates of {@link dev.kruisevertx.controller.Shards} wired to the scope as the manager wires them, while shard
     * 0 is won, lost during its whole fill, won again and shard 1 is lost meanwhile: a checker polling all along never
     * sees a key owned whose pods are not all cached.
     */
    @Test
    void aKeyIsNeverOwnedBeforeItsPodsAreAllCachedWhileShardZeroComesAndGoes() throws Exception {
        newCache(true);
        Set<String> inZero = new java.util.TreeSet<>();
        Set<String> everyPod = new java.util.TreeSet<>();
        for (int i = 0; i < 40; i++) {
            create(NS0, "a-" + i, "n1", "uid-a");
            create(NS1, "b-" + i, "n1", "uid-b");
            inZero.add(NS0 + "/a-" + i);
            everyPod.add(NS0 + "/a-" + i);
            everyPod.add(NS1 + "/b-" + i);
        }
        CachedResource<Pod> pods = cache.resource(Pod.class);
        done(cache.start(Pod.class));
        dev.kruisevertx.controller.Shards shards = new dev.kruisevertx.controller.Shards(2, Long.MAX_VALUE, () -> 0);
        shards.gateOnCache();
        dev.kruisevertx.controller.Request keyInZero = new dev.kruisevertx.controller.Request(NS0, "web");
        dev.kruisevertx.controller.Request clusterKey = new dev.kruisevertx.controller.Request("", "sidecarset-a");

        List<String> violations = new CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean checking = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicLong checks = new java.util.concurrent.atomic.AtomicLong();
        Runnable check = () -> {
            // Owned first, cache read after: a key owned at the first read must be served by the second.
            boolean zeroOwned = shards.owns(keyInZero);
            boolean clusterOwned = shards.owns(clusterKey);
            Set<String> cached = names(pods.list());
            if (zeroOwned && !cached.containsAll(inZero)) {
                violations.add("shard 0's key owned with " + cached.size() + " pods cached");
            }
            if (clusterOwned && !cached.containsAll(everyPod)) {
                violations.add("a cluster-scoped key owned with " + cached.size() + " pods cached");
            }
            checks.incrementAndGet();
        };
        Thread checker = new Thread(() -> {
            while (checking.get()) {
                check.run();
            }
        }, "gate-checker");
        checker.start();
        try {
            List<java.util.concurrent.CompletionStage<Void>> stages = new java.util.ArrayList<>();
            // Shard 0 alone first: its second stage lists shard 1's pods while shard 0's keys are owned.
            done(win(shards, 0, check));
            shards.dropped(0);
            done(scope.lost(Set.of(0)));
            assertEquals(Set.of(), names(pods.list()));
            // Won, lost during its fill, shard 1 won, shard 0 won again and shard 1 lost meanwhile: none waits for
            // the previous.
            stages.add(win(shards, 0, check));
            shards.dropped(0);
            stages.add(scope.lost(Set.of(0)));
            stages.add(win(shards, 1, check));
            stages.add(win(shards, 0, check));
            shards.dropped(1);
            stages.add(scope.lost(Set.of(1)));
            for (java.util.concurrent.CompletionStage<Void> stage : stages) {
                done(stage);
            }
            await("the checker ran", () -> checks.get() > 100);
        } finally {
            checking.set(false);
            checker.join();
        }
        assertEquals(List.of(), violations);
        assertTrue(shards.owns(keyInZero));
        assertTrue(shards.owns(clusterKey), "shard 0 alone: every pod is cached, the cluster-scoped keys are owned");
        assertEquals(everyPod, names(pods.list()));
    }

    /**
     * Wins {@code shard} as the manager does: the gates open from the scope's stages; {@code check} runs right after
     * each opening too (the first one before the rest of the kind is listed).
     */
    private java.util.concurrent.CompletionStage<Void> win(dev.kruisevertx.controller.Shards shards, int shard,
                                                           Runnable check) {
        shards.renewed(shard, 0);
        Map<Integer, Long> wins = shards.awaitingCache(Set.of(shard));
        return scope.gained(Set.of(shard), () -> {
            shards.cacheReady(wins);
            check.run();
        }).thenRun(() -> {
            shards.wholeCacheReady(wins);
            check.run();
        });
    }

    @Test
    void aShardWonBeforeTheInformerStartsIsListedInAndKeptByItsFirstList() throws Exception {
        newCache(false);
        create(NS0, "a-0", "n1", "uid-a");
        create(NS1, "b-0", "n1", "uid-b");
        CachedResource<Pod> pods = cache.resource(Pod.class);
        done(scope.gained(Set.of(1)));
        assertEquals(Set.of(NS1 + "/b-0"), names(pods.list()));
        assertTrue(scope.caches(Pod.class, NS1));
        done(cache.start(Pod.class));
        create(NS1, "b-1", "n1", "uid-b");
        await("b-1 in", () -> pods.get(NS1, "b-1") != null);
        assertEquals(Set.of(NS1 + "/b-0", NS1 + "/b-1"), names(pods.byIndex(Indexes.NODE_NAME, "n1")));
    }

    @Test
    void aReplicaIsSentOnlyThePodsOfItsShardsNamespaces() throws Exception {
        newCache(false);
        for (int i = 0; i < 3; i++) {
            create(NS0, "a-" + i, "n1", "uid-a");
        }
        for (int i = 0; i < 5; i++) {
            create(NS1, "b-" + i, "n1", "uid-b");
        }
        CachedResource<Pod> pods = cache.resource(Pod.class);
        // Start-up as a manager does it: the informer starts before the election gave the replica any shard.
        done(cache.start(Pod.class));
        assertEquals(0L, served.podsListed.get(), "no shard covered: only the Namespaces were listed");
        done(scope.gained(Set.of(0)));
        assertEquals(3, pods.list().size());
        assertEquals(3L, served.podsListed.get(), "the API server sent this replica shard 0's pods only");
        assertTrue(served.podLists.stream().noneMatch(p -> p.equals("/api/v1/pods")),
                "no cluster-wide pod list: " + served.podLists);
        assertEquals(List.of("/api/v1/namespaces/" + NS0 + "/pods"), served.podLists);

        done(scope.gained(Set.of(1)));
        assertEquals(8, pods.list().size());
        assertEquals(8L, served.podsListed.get());
    }

    @Test
    void aShardLostRightAfterItWasGainedEndsUncoveredWhateverTheFillDid() throws Exception {
        newCache(false);
        create(NS0, "a-0", "n1", "uid-a");
        create(NS1, "b-0", "n1", "uid-b");
        done(scope.gained(Set.of(0)));
        CachedResource<Pod> pods = cache.resource(Pod.class);
        done(cache.start(Pod.class));
        // The loss is asked for while the gain's fill may still be listing: both run in order on the scope's thread.
        var gain = scope.gained(Set.of(1));
        var loss = scope.lost(Set.of(1));
        done(gain);
        done(loss);
        assertEquals(Set.of(NS0 + "/a-0"), names(pods.list()));
        assertFalse(scope.caches(Pod.class, NS1));
        create(NS1, "b-1", "n1", "uid-b");
        create(NS0, "a-1", "n1", "uid-a");
        await("a-1 in", () -> pods.get(NS0, "a-1") != null);
        assertNull(pods.get(NS1, "b-1"));
        assertEquals(Set.of(), names(pods.byIndex(Indexes.OWNER_UID, "uid-b")));
    }

    @Test
    void aScopeMustBeSetBeforeItsKindsInformersExist() {
        cache = new WatchCache(cluster.client, WatchCacheOptions.defaults(Map.of()), registry);
        cache.resource(Pod.class);
        ShardCacheScope late = new ShardCacheScope(2, Map.of(Pod.class, false));
        assertThrows(IllegalStateException.class, () -> cache.cacheByShard(late));
        late.close();
        cache.close();
        cache = null;
    }

    @Test
    void unshardedKindsStayWhole() throws Exception {
        newCache(false);
        cluster.client.configMaps().inNamespace(NS1).resource(new ConfigMapBuilder().withNewMetadata()
                .withName("c").endMetadata().build()).create();
        done(scope.gained(Set.of(0)));
        done(cache.start(ConfigMap.class));
        assertEquals(1, cache.resource(ConfigMap.class).list(NS1).size());
        assertEquals(1.0, registry.get(WatchCache.OBJECTS_METRIC).tag("kind", "v1/ConfigMap").gauge().value());
        done(cache.start(Pod.class));
    }
}
