package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.WatchEventBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static dev.kruisevertx.cache.MockCluster.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scripted API server (expectations mode): the failure paths the CRUD mock never takes. */
class InformerRecoveryTest {
    private static final String PODS = "/api/v1/namespaces/test/pods";
    private static final String WATCH_QUERY = "?allowWatchBookmarks=true&resourceVersion=%s&timeoutSeconds=600&watch=true";

    // A scripted watch closes when its script ends, and the mock's shutdown waits for open scripts; so
    // watches stay open a few seconds, and relists after such a close are scripted with always().
    private static final long STAY_OPEN_MS = 3_000;
    private static final WatchEvent QUIET = new WatchEventBuilder().withType("BOOKMARK")
            .withObject(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withResourceVersion("999")
                    .endMetadata().build()).build();

    private MockCluster cluster;
    private WatchCache cache;
    private SimpleMeterRegistry registry;

    @BeforeEach
    void setUp() {
        cluster = MockCluster.expectations();
        registry = new SimpleMeterRegistry();
        cache = new WatchCache(cluster.client, WatchCacheOptions.defaults().withMutationDetector(false).withNamespace("test"),
                registry);
    }

    @AfterEach
    void tearDown() {
        cache.close();
        cluster.close();
    }

    @Test
    void watchAnswering410GoneMakesTheInformerRelist() throws Exception {
        Pod gone = MockCluster.pod("test", "gone-0", "node-1");
        Pod kept = MockCluster.pod("test", "kept-0", "node-1");
        Pod added = MockCluster.pod("test", "added-0", "node-1");
        gone.getMetadata().setResourceVersion("1");
        kept.getMetadata().setResourceVersion("2");
        added.getMetadata().setResourceVersion("4");

        cluster.server.expect().get().withPath(PODS + "?resourceVersion=0")
                .andReturn(200, new PodListBuilder().withNewMetadata().withResourceVersion("3").endMetadata()
                        .withItems(gone, kept).build())
                .once();
        WatchEvent expired = new WatchEventBuilder().withType("ERROR").withObject(new StatusBuilder()
                .withStatus("Failure").withCode(410).withReason("Expired")
                .withMessage("too old resource version: 3 (10)").build()).build();
        cluster.server.expect().get().withPath(PODS + WATCH_QUERY.formatted("3"))
                .andUpgradeToWebSocket().open().waitFor(100).andEmit(expired).done().once();
        // the relist after 410 must not be served from the API server's watch cache (no resourceVersion=0)
        cluster.server.expect().get().withPath(PODS)
                .andReturn(200, new PodListBuilder().withNewMetadata().withResourceVersion("10").endMetadata()
                        .withItems(kept, added).build())
                .always();
        cluster.server.expect().get().withPath(PODS + WATCH_QUERY.formatted("10"))
                .andUpgradeToWebSocket().open().waitFor(STAY_OPEN_MS).andEmit(QUIET).done().always();

        CachedResource<Pod> pods = cache.resource(Pod.class);
        List<CacheEvent<Pod>> events = new CopyOnWriteArrayList<>();
        pods.addListener(events::add);
        cache.start(Pod.class).toCompletableFuture().get(MockCluster.WAIT.toSeconds(), TimeUnit.SECONDS);

        await("relisted pod added-0 in cache", () -> pods.get("test", "added-0") != null);
        await("gone-0 dropped", () -> pods.get("test", "gone-0") == null);
        assertNotNull(pods.get("test", "kept-0"));
        assertNull(pods.get("test", "gone-0"));
        await("watching again after the relist", pods::isWatching);
        await("deletion of gone-0 delivered", () -> events.stream().anyMatch(e -> e.type() == CacheEvent.Type.DELETED
                && e.object().getMetadata().getName().equals("gone-0")));
        assertTrue(events.stream().anyMatch(e -> e.type() == CacheEvent.Type.ADDED
                && e.object().getMetadata().getName().equals("added-0") && !e.initialList()));
        assertEquals(2, pods.list().size());
    }

    @Test
    void failingListIsRetriedUntilItSucceeds() throws Exception {
        cluster.server.expect().get().withPath(PODS + "?resourceVersion=0")
                .andReturn(500, new StatusBuilder().withStatus("Failure").withCode(500).withMessage("etcd is down").build())
                .times(2);
        Pod pod = MockCluster.pod("test", "web-0", "node-1");
        pod.getMetadata().setResourceVersion("7");
        cluster.server.expect().get().withPath(PODS + "?resourceVersion=0")
                .andReturn(200, new PodListBuilder().withNewMetadata().withResourceVersion("7").endMetadata()
                        .withItems(pod).build())
                .once();
        cluster.server.expect().get().withPath(PODS)
                .andReturn(200, new PodListBuilder().withNewMetadata().withResourceVersion("7").endMetadata()
                        .withItems(pod).build())
                .always();
        cluster.server.expect().get().withPath(PODS + WATCH_QUERY.formatted("7"))
                .andUpgradeToWebSocket().open().waitFor(STAY_OPEN_MS).andEmit(QUIET).done().always();

        CachedResource<Pod> pods = cache.resource(Pod.class);
        cache.start(Pod.class).toCompletableFuture().get(MockCluster.WAIT.toSeconds(), TimeUnit.SECONDS);

        assertTrue(pods.hasSynced());
        assertNotNull(pods.get("test", "web-0"));
        assertTrue(registry.get(WatchCache.RETRY_METRIC).tag("kind", "v1/Pod").counter().count() >= 2.0);
        await("watching", pods::isWatching);
    }
}
