package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(VertxExtension.class)
class CacheEventBusTest {
    private MockCluster cluster;
    private WatchCache cache;

    @BeforeEach
    void setUp() {
        cluster = MockCluster.crud();
        cache = new WatchCache(cluster.client, WatchCacheOptions.defaults().withMutationDetector(false),
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
    }

    @AfterEach
    void tearDown() {
        if (cache.resource(Pod.class).hasSynced()) {
            cluster.settlePods(cache.resource(Pod.class), "a");
        }
        cache.close();
        cluster.close();
    }

    @Test
    void addressesAreDocumentedNames() {
        assertEquals("kruise.cache.v1.Pod", CacheEventBus.address(Pod.class));
        assertEquals("kruise.cache.apps.v1.Deployment", CacheEventBus.address(io.fabric8.kubernetes.api.model.apps.Deployment.class));
        assertEquals("kruise.cache.test.kruisevertx.dev.v1alpha1.Widget", CacheEventBus.address(Widget.class));
        assertThrows(IllegalArgumentException.class, () -> CacheEventBus.address(String.class));
    }

    @Test
    void deliversAddUpdateDeleteAsTheCachedInstances(Vertx vertx, VertxTestContext ctx) throws Exception {
        CacheEventBus.registerCodec(vertx);
        CacheEventBus.registerCodec(vertx); // idempotent
        CachedResource<Pod> pods = cache.resource(Pod.class);
        List<CacheEvent<Pod>> received = new CopyOnWriteArrayList<>();
        List<Boolean> onEventLoop = new CopyOnWriteArrayList<>();
        String address = CacheEventBus.address(Pod.class);
        vertx.eventBus().<CacheEvent<Pod>>localConsumer(address, msg -> {
            CacheEvent<Pod> event = msg.body();
            received.add(event);
            onEventLoop.add(io.vertx.core.Context.isOnEventLoopThread());
            if (received.size() == 3) {
                ctx.completeNow();
            }
        }).completion().onComplete(ctx.succeeding(registered -> {
            CacheEventBus.bridge(vertx, cache, Pod.class);
            CacheEventBus.bridge(vertx, cache, Pod.class); // a second verticle asking again: no duplicates
            vertx.executeBlocking(() -> {
                cache.start(Pod.class).toCompletableFuture().get(MockCluster.WAIT.toSeconds(), TimeUnit.SECONDS);
                cluster.client.pods().inNamespace("a").resource(MockCluster.pod("a", "web-0", "node-1")).create();
                MockCluster.await("web-0 cached", () -> pods.get("a", "web-0") != null);
                cluster.client.pods().inNamespace("a").withName("web-0")
                        .edit(p -> new PodBuilder(p).editMetadata().addToLabels("v", "2").endMetadata().build());
                MockCluster.await("web-0 updated", () -> pods.get("a", "web-0").getMetadata().getLabels().containsKey("v"));
                // keep the updated instance: after the delete the cache no longer holds it
                updated = pods.get("a", "web-0");
                cluster.client.pods().inNamespace("a").withName("web-0").delete();
                return null;
            }).onFailure(ctx::failNow);
        }));

        assertTrue(ctx.awaitCompletion(MockCluster.WAIT.toSeconds(), TimeUnit.SECONDS));
        assertEquals(List.of(CacheEvent.Type.ADDED, CacheEvent.Type.UPDATED, CacheEvent.Type.DELETED),
                received.stream().map(CacheEvent::type).toList());
        assertFalse(received.get(0).initialList());
        assertTrue(onEventLoop.stream().allMatch(b -> b), "consumers run on their Vert.x context");
        // no copy anywhere between the informer and the consumer
        assertSame(received.get(0).newObject(), received.get(1).oldObject());
        assertSame(updated, received.get(1).newObject());
        // a deletion carries the final state the watch reported, a fresh object (as in client-go)
        assertEquals(updated.getMetadata().getResourceVersion(), received.get(2).oldObject().getMetadata().getResourceVersion());
        assertNull(received.get(2).newObject());
    }

    private volatile Pod updated;

    @Test
    void codecPassesTheSameInstanceAndRefusesTheWire() {
        CacheEventBus.LocalCodec codec = new CacheEventBus.LocalCodec();
        CacheEvent<Pod> event = CacheEvent.added(MockCluster.pod("a", "p", null), false);
        assertSame(event, codec.transform(event));
        assertThrows(IllegalStateException.class, () -> codec.encodeToWire(io.vertx.core.buffer.Buffer.buffer(), event));
        assertThrows(IllegalStateException.class, () -> codec.decodeFromWire(0, io.vertx.core.buffer.Buffer.buffer()));
        assertEquals(CacheEventBus.CODEC_NAME, codec.name());
    }

    @Test
    void registeredCodecDeliversAPlainPublishByReference(Vertx vertx, VertxTestContext ctx) {
        CacheEventBus.registerCodec(vertx);
        CacheEvent<Pod> event = CacheEvent.added(MockCluster.pod("a", "p", null), true);
        vertx.eventBus().<CacheEvent<Pod>>consumer("kruise.cache.test", msg -> ctx.verify(() -> {
            assertSame(event, msg.body());
            ctx.completeNow();
        })).completion().onComplete(ctx.succeeding(v ->
                vertx.eventBus().publish("kruise.cache.test", event, new DeliveryOptions().setLocalOnly(true))));
    }
}
