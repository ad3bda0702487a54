package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WatchTest {
    static final Duration TIMEOUT = Duration.ofSeconds(20);
    static final ObjectMapper MAPPER = new ObjectMapper();
    static ClusterFixture fixture;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setEventLogSize(50).setBookmarkIntervalMs(200));
        client = fixture.client();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    static ConfigMap cm(String name, String app) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).addToLabels("app", app).endMetadata().addToData("v", "1").build();
    }

    @Test
    void informerListsAndWatches() {
        client.configMaps().inNamespace("default").resource(cm("inf-1", "inf")).create();
        List<String> seen = new CopyOnWriteArrayList<>();
        SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace("default").withLabel("app", "inf")
                .inform(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(ConfigMap obj) {
                        seen.add("add " + obj.getMetadata().getName());
                    }

                    @Override
                    public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
                        seen.add("update " + newObj.getMetadata().getName() + " " + newObj.getData().get("v"));
                    }

                    @Override
                    public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
                        seen.add("delete " + obj.getMetadata().getName());
                    }
                }, 0);
        try {
            Await.waitFor("informer synced", TIMEOUT, informer::hasSynced);
            client.configMaps().inNamespace("default").resource(cm("inf-2", "inf")).create();
            client.configMaps().inNamespace("default").withName("inf-1").edit(c -> new ConfigMapBuilder(c).addToData("v", "2").build());
            client.configMaps().inNamespace("default").withName("inf-2").delete();
            Await.waitFor("informer events", TIMEOUT, () -> List.copyOf(seen),
                    s -> s.equals(List.of("add inf-1", "add inf-2", "update inf-1 2", "delete inf-2")));
            assertEquals(1, informer.getStore().list().size());
        } finally {
            informer.close();
        }
    }

    /**
     * A held namespace makes watches lag (in order, later events of other namespaces queue behind), while reads see
     * the writes at once; released, the watch catches up. No bookmark jumps past a held event meanwhile (the fixture
     * sends them every 200 ms).
     */
    @Test
    void heldWatchEventsLagInOrderUntilReleased() throws Exception {
        client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName("lagging").endMetadata().build()).create();
        List<String> events = new CopyOnWriteArrayList<>();
        try (Watch w = client.configMaps().inAnyNamespace().withLabel("app", "held").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, ConfigMap resource) {
                events.add(action + " " + resource.getMetadata().getNamespace() + "/" + resource.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        })) {
            client.configMaps().inNamespace("default").resource(cm("before", "held")).create();
            Await.waitFor("the watch is live", TIMEOUT, () -> events.contains("ADDED default/before"));
            fixture.cluster().holdWatchEvents("configmaps", "lagging").toCompletionStage().toCompletableFuture()
                    .get(20, TimeUnit.SECONDS);
            client.configMaps().inNamespace("lagging").resource(cm("held-1", "held")).create();
            client.configMaps().inNamespace("default").resource(cm("after", "held")).create();
            assertTrue(client.configMaps().inNamespace("lagging").withName("held-1").get() != null, "reads see it");
            Thread.sleep(1000);
            assertEquals(List.of("ADDED default/before"), List.copyOf(events), "the watch lags behind the held write");
            fixture.cluster().releaseWatchEvents("configmaps", "lagging").toCompletionStage().toCompletableFuture()
                    .get(20, TimeUnit.SECONDS);
            Await.waitFor("caught up in order", TIMEOUT, () -> List.copyOf(events), e -> e.equals(List.of(
                    "ADDED default/before", "ADDED lagging/held-1", "ADDED default/after")));
        }
    }

    @Test
    void watchFromResourceVersionDoesNotReplayOlderEvents() throws Exception {
        ConfigMap first = client.configMaps().inNamespace("default").resource(cm("rv-1", "rv")).create();
        client.configMaps().inNamespace("default").resource(cm("rv-2", "rv")).create();
        List<String> events = new CopyOnWriteArrayList<>();
        try (Watch w = client.configMaps().inNamespace("default").withLabel("app", "rv")
                .watch(first.getMetadata().getResourceVersion(), new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, ConfigMap resource) {
                        events.add(action + " " + resource.getMetadata().getName());
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                })) {
            client.configMaps().inNamespace("default").resource(cm("rv-3", "rv")).create();
            Await.waitFor("rv-2 replayed and rv-3 live", TIMEOUT, () -> List.copyOf(events),
                    e -> e.equals(List.of("ADDED rv-2", "ADDED rv-3")));
        }
    }

    @Test
    void labelTransitionsBecomeAddedAndDeleted() {
        client.configMaps().inNamespace("default").resource(cm("move", "before")).create();
        List<String> events = new CopyOnWriteArrayList<>();
        try (Watch w = client.configMaps().inNamespace("default").withLabelIn("app", "after", "other").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, ConfigMap resource) {
                events.add(action + " " + resource.getMetadata().getLabels().get("app"));
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        })) {
            client.configMaps().inNamespace("default").withName("move").edit(c -> new ConfigMapBuilder(c).editMetadata().addToLabels("app", "after").endMetadata().build());
            client.configMaps().inNamespace("default").withName("move").edit(c -> new ConfigMapBuilder(c).editMetadata().addToLabels("app", "elsewhere").endMetadata().build());
            Await.waitFor("ADDED then DELETED", TIMEOUT, () -> List.copyOf(events), e -> e.equals(List.of("ADDED after", "DELETED elsewhere")));
        }
    }

    @Test
    void tooOldResourceVersionGets410() throws Exception {
        ConfigMap old = client.configMaps().inNamespace("default").resource(cm("old", "gone")).create();
        for (int i = 0; i < 60; i++) {
            client.configMaps().inNamespace("default").withName("old").edit(c -> new ConfigMapBuilder(c).addToData("v", Long.toString(System.nanoTime())).build());
        }
        CompletableFuture<WatcherException> closed = new CompletableFuture<>();
        client.configMaps().inNamespace("default").watch(old.getMetadata().getResourceVersion(), new Watcher<>() {
            @Override
            public void eventReceived(Action action, ConfigMap resource) {
            }

            @Override
            public void onClose(WatcherException cause) {
                closed.complete(cause);
            }
        });
        WatcherException e = closed.get(20, TimeUnit.SECONDS);
        assertTrue(e.isHttpGone(), "expected 410 Gone, got " + e);
    }

    @Test
    void chunkedWatchSendsBookmarksAndEvents() throws Exception {
        String rv = client.configMaps().inNamespace("default").list().getMetadata().getResourceVersion();
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest req = HttpRequest.newBuilder(URI.create(fixture.cluster().url()
                + "/api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true&resourceVersion=" + rv + "&timeoutSeconds=10")).build();
        HttpResponse<InputStream> resp = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, resp.statusCode());
        client.configMaps().inNamespace("default").resource(cm("chunked", "chunked")).create();
        boolean sawAdded = false;
        boolean sawBookmark = false;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(resp.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null && !(sawAdded && sawBookmark)) {
                JsonNode ev = MAPPER.readTree(line);
                if (ev.path("type").asText().equals("ADDED")) {
                    assertEquals("chunked", ev.path("object").path("metadata").path("name").asText());
                    sawAdded = true;
                }
                if (ev.path("type").asText().equals("BOOKMARK")) {
                    assertTrue(Long.parseLong(ev.path("object").path("metadata").path("resourceVersion").asText()) >= Long.parseLong(rv));
                    sawBookmark = true;
                }
            }
        }
        assertTrue(sawAdded && sawBookmark, "added " + sawAdded + ", bookmark " + sawBookmark);
    }
}
