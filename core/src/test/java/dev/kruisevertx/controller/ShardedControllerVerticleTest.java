package dev.kruisevertx.controller;

import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.cache.CacheEventBus;
import dev.kruisevertx.cache.MockCluster;
import dev.kruisevertx.cache.WatchCache;
import dev.kruisevertx.cache.WatchCacheOptions;
import dev.kruisevertx.features.FeatureGates;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The runtime's shard filter ({@code --shards}): enqueue filter, replay of won shards, drop of lost shards' keys. */
class ShardedControllerVerticleTest {
    private Vertx vertx;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final String ns0 = namespaceIn(0);
    private final String ns1 = namespaceIn(1);

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx();
        CacheEventBus.registerCodec(vertx);
    }

    @AfterEach
    void tearDown() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static String namespaceIn(int shard) {
        for (int i = 0; ; i++) {
            if (Shards.shardOf("team-" + i, 2) == shard) {
                return "team-" + i;
            }
        }
    }

    private static Pod pod(String ns, String name) {
        return new PodBuilder().withNewMetadata().withNamespace(ns).withName(name).endMetadata().build();
    }

    private void publish(Pod pod) {
        vertx.eventBus().publish(CacheEventBus.address(Pod.class), CacheEvent.added(pod, false),
                new DeliveryOptions().setLocalOnly(true).setCodecName(CacheEventBus.CODEC_NAME));
    }

    private void deploy(WatchCache cache, Shards shards, Reconciler reconciler) throws Exception {
        deploy(cache, shards, reconciler, EventMapper.self());
    }

    private void deploy(WatchCache cache, Shards shards, Reconciler reconciler, EventMapper<Pod> mapper)
            throws Exception {
        ControllerDefinition definition = new NamedControllerDefinition("test", Pod.class) {
            @Override
            public Controller create(ControllerContext context) {
                return new Controller(reconciler, List.of(WatchSpec.of(Pod.class, mapper)));
            }
        };
        ManagerSettings settings = new ManagerSettings(null, Duration.ofMinutes(5), Duration.ofMillis(1),
                Duration.ofMillis(50), 1000, 1000, Map.of("test", 1), Map.of());
        ControllerContext ctx = new ControllerContext(vertx, cache, null, null, FeatureGates.defaults(), registry,
                new PlanRecorder(), settings, shards);
        vertx.deployVerticle(new ControllerVerticle(definition, ctx), new DeploymentOptions())
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void onlyKeysOfHeldShardsAreReconciledAndAWonShardIsReplayedFromTheCache() throws Exception {
        try (MockCluster cluster = MockCluster.crud();
             WatchCache cache = new WatchCache(cluster.client, new WatchCacheOptions(null, Duration.ZERO, false),
                     registry)) {
            for (String ns : List.of(ns0, ns1)) {
                for (int i = 0; i < 3; i++) {
                    cluster.client.pods().inNamespace(ns).resource(pod(ns, "p-" + i)).create();
                }
            }
            cache.start(Pod.class).toCompletableFuture().get(60, TimeUnit.SECONDS);
            Shards shards = new Shards(2, TimeUnit.SECONDS.toNanos(60), System::nanoTime);
            shards.renewed(0, System.nanoTime());
            List<Request> reconciled = new CopyOnWriteArrayList<>();
            List<String> triggers = new CopyOnWriteArrayList<>();
            deploy(cache, shards, request -> {
                reconciled.add(request);
                triggers.add(ReconcileContext.current().trigger());
                return Future.succeededFuture(Result.done());
            });
            await("the held shard's cached pods reconciled", () -> reconciled.size() >= 3);
            publish(pod(ns1, "event-in-shard-1"));
            publish(pod(ns0, "event-in-shard-0"));
            await("the held shard's event", () -> reconciled.contains(new Request(ns0, "event-in-shard-0")));
            Thread.sleep(300);
            assertEquals(Set.of(ns0), reconciled.stream().map(Request::namespace).collect(Collectors.toSet()),
                    "a key of a shard not held was reconciled: " + reconciled);

            // Shard 1 won: its cached keys are queued, and only those (shard 0's are not reconciled again).
            int before = reconciled.size();
            shards.renewed(1, System.nanoTime());
            vertx.eventBus().publish(Shards.GAINED_ADDRESS, new JsonArray(List.of(1)));
            await("shard 1's cached pods reconciled", () -> reconciled.stream().filter(r -> r.namespace().equals(ns1))
                    .count() >= 3);
            Thread.sleep(300);
            List<Request> after = reconciled.subList(before, reconciled.size());
            assertTrue(after.stream().allMatch(r -> r.namespace().equals(ns1)), after.toString());
            assertTrue(triggers.get(before).startsWith("replay of shard(s) [1] won"), triggers.toString());
            cluster.client.pods().inNamespace(ns0).resource(pod(ns0, "settle")).create();
            await("marker pod in cache", () -> cache.resource(Pod.class).get(ns0, "settle") != null);
        }
    }

    /**
     * Shard 0 won with its own pods cached but the kinds cached whole not yet complete: its namespaced keys are
     * reconciled, the cluster-scoped key its pods map to is not; once the whole cache is ready and announced, the
     * cluster-scoped key is queued from the cache (and only it).
     */
    @Test
    void clusterScopedKeysAreQueuedFromTheCacheOnceTheirWholeCacheIsReady() throws Exception {
        try (MockCluster cluster = MockCluster.crud();
             WatchCache cache = new WatchCache(cluster.client, new WatchCacheOptions(null, Duration.ZERO, false),
                     registry)) {
            for (int i = 0; i < 3; i++) {
                cluster.client.pods().inNamespace(ns0).resource(pod(ns0, "p-" + i)).create();
            }
            cache.start(Pod.class).toCompletableFuture().get(60, TimeUnit.SECONDS);
            Shards shards = new Shards(2, TimeUnit.SECONDS.toNanos(60), System::nanoTime);
            shards.gateOnCache();
            shards.renewed(0, System.nanoTime());
            Map<Integer, Long> win = shards.awaitingCache(Set.of(0));
            shards.cacheReady(win);
            Request clusterKey = new Request("", "every-pod");
            List<Request> reconciled = new CopyOnWriteArrayList<>();
            List<String> triggers = new CopyOnWriteArrayList<>();
            deploy(cache, shards, request -> {
                reconciled.add(request);
                triggers.add(ReconcileContext.current().trigger());
                return Future.succeededFuture(Result.done());
            }, (event, queue) -> {
                queue.add(Request.of(event.object()));
                queue.add(clusterKey);
            });
            await("shard 0's namespaced keys reconciled", () -> reconciled.size() >= 3);
            publish(pod(ns0, "event-in-shard-0"));
            await("the event's key", () -> reconciled.contains(new Request(ns0, "event-in-shard-0")));
            Thread.sleep(300);
            assertTrue(!reconciled.contains(clusterKey), "a cluster-scoped key reconciled before its cache was whole: "
                    + reconciled);

            int before = reconciled.size();
            shards.wholeCacheReady(win);
            vertx.eventBus().publish(Shards.CLUSTER_KEYS_OWNED_ADDRESS, null);
            await("the cluster-scoped key", () -> reconciled.contains(clusterKey));
            Thread.sleep(300);
            // Each cached pod maps to it; the queue may hand it out again while it is being reconciled.
            List<Request> after = reconciled.subList(before, reconciled.size());
            assertTrue(after.stream().allMatch(clusterKey::equals), "only the cluster-scoped key is queued: " + after);
            assertEquals("replay of cluster-scoped keys", triggers.get(before));
        }
    }

    @Test
    void aQueuedKeyOfAShardLostMeanwhileIsDroppedWhenTaken() throws Exception {
        Shards shards = new Shards(2, TimeUnit.SECONDS.toNanos(60), System::nanoTime);
        shards.renewed(0, System.nanoTime());
        shards.renewed(1, System.nanoTime());
        List<Request> reconciled = new CopyOnWriteArrayList<>();
        List<Promise<Result>> held = new CopyOnWriteArrayList<>();
        deploy(null, shards, request -> {
            reconciled.add(request);
            Promise<Result> p = Promise.promise();
            held.add(p);
            return p.future();
        });
        publish(pod(ns0, "first"));
        await("first in flight", () -> held.size() == 1);
        // One worker: these wait in the queue behind the first.
        publish(pod(ns1, "queued-in-shard-1"));
        publish(pod(ns0, "queued-in-shard-0"));
        Thread.sleep(200);
        shards.dropped(1);
        vertx.runOnContext(v -> held.get(0).complete(Result.done()));
        await("shard 0's queued key", () -> reconciled.contains(new Request(ns0, "queued-in-shard-0")));
        vertx.runOnContext(v -> held.forEach(p -> p.tryComplete(Result.done())));
        Thread.sleep(300);
        assertEquals(List.of(new Request(ns0, "first"), new Request(ns0, "queued-in-shard-0")), reconciled);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(10);
        }
        fail("timed out waiting for " + what);
    }
}
