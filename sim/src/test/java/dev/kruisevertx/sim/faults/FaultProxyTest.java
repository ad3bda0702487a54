package dev.kruisevertx.sim.faults;

import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each fault class of {@link FaultProxy}, against the embedded API server, over plain HTTP, chunked and WebSocket watches. */
class FaultProxyTest {
    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static ClusterFixture fixture;
    static final AtomicInteger names = new AtomicInteger();
    final List<AutoCloseable> closing = new ArrayList<>();
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() {
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    FaultProxy proxy(FaultPlan plan) throws Exception {
        FaultProxy p = FaultProxy.start(fixture.vertx(), fixture.cluster().url(), 42, plan).await(10, TimeUnit.SECONDS);
        closing.add(p);
        return p;
    }

    KubernetesClient clientVia(FaultProxy p) {
        KubernetesClient c = KubeClients.forTest(new ConfigBuilder(fixture.cluster().clientConfig())
                .withMasterUrl(p.url()).withHttp2Disable(true).build());
        closing.add(c);
        return c;
    }

    static ConfigMap cm(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).addToLabels("app", "faults").endMetadata()
                .addToData("v", "1").build();
    }

    static String name() {
        return "fp-" + names.incrementAndGet();
    }

    HttpResponse<String> get(FaultProxy p, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(p.url() + path)).timeout(TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void noFaultsForwardsEverythingAndLogsIt() throws Exception {
        FaultProxy p = proxy(FaultPlan.none());
        KubernetesClient c = clientVia(p);
        String n = name();
        c.configMaps().inNamespace("default").resource(cm(n)).create();
        assertEquals("1", c.configMaps().inNamespace("default").withName(n).get().getData().get("v"));
        assertTrue(p.log(r -> r.isWrite() && r.forwarded() && r.status() == 201).size() >= 1);
        assertEquals(0, p.faultCounts().values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void conflictsOnlyWrites() throws Exception {
        FaultProxy p = proxy(FaultPlan.only(FaultClass.CONFLICT, 1.0));
        KubernetesClient c = clientVia(p);
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> c.configMaps().inNamespace("default").resource(cm(name())).create());
        assertEquals(409, e.getCode());
        // Reads pass untouched.
        assertNotNull(c.configMaps().inNamespace("default").list());
        assertEquals(1, p.faults(FaultClass.CONFLICT));
        assertTrue(p.log(r -> r.fault() == FaultClass.CONFLICT).stream().noneMatch(ProxiedRequest::forwarded));
    }

    @Test
    void tooManyRequestsCarriesRetryAfter() throws Exception {
        FaultProxy p = proxy(FaultPlan.only(FaultClass.TOO_MANY_REQUESTS, 1.0)
                .timing(FaultClass.TOO_MANY_REQUESTS, Duration.ofSeconds(2)));
        HttpResponse<String> r = get(p, "/api/v1/namespaces/default/configmaps");
        assertEquals(429, r.statusCode());
        assertEquals("2", r.headers().firstValue("Retry-After").orElse(null));
        assertTrue(r.body().contains("\"kind\":\"Status\""), r.body());
        assertEquals(1, p.faults(FaultClass.TOO_MANY_REQUESTS));
    }

    @Test
    void serverErrors() throws Exception {
        FaultProxy p = proxy(FaultPlan.only(FaultClass.INTERNAL_ERROR, 1.0));
        assertEquals(500, get(p, "/api/v1/namespaces/default/configmaps").statusCode());
        p.plan(FaultPlan.only(FaultClass.UNAVAILABLE, 1.0));
        assertEquals(503, get(p, "/api/v1/namespaces/default/configmaps").statusCode());
        assertEquals(1, p.faults(FaultClass.INTERNAL_ERROR));
        assertEquals(1, p.faults(FaultClass.UNAVAILABLE));
    }

    @Test
    void slowAnswersArriveLate() throws Exception {
        FaultProxy p = proxy(FaultPlan.only(FaultClass.SLOW, 1.0).timing(FaultClass.SLOW, Duration.ofSeconds(2)));
        long start = System.nanoTime();
        HttpResponse<String> r = get(p, "/api/v1/namespaces/default/configmaps");
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertEquals(200, r.statusCode());
        assertTrue(tookMs >= 200, "a slow answer waits at least a tenth of the delay, took " + tookMs + " ms");
        assertEquals(1, p.faults(FaultClass.SLOW));
        assertTrue(p.log().get(0).forwarded());
    }

    @Test
    void timeoutsHoldThenCloseAndResetsClose() throws Exception {
        FaultProxy p = proxy(FaultPlan.only(FaultClass.TIMEOUT, 1.0)
                .timing(FaultClass.TIMEOUT, Duration.ofMillis(300)));
        // The JDK client retries an idempotent GET once on a closed connection: one or two faults per call.
        assertThrows(IOException.class, () -> get(p, "/api/v1/namespaces/default/configmaps"));
        assertTrue(p.faults(FaultClass.TIMEOUT) >= 1);
        p.plan(FaultPlan.only(FaultClass.CONNECTION_RESET, 1.0));
        assertThrows(IOException.class, () -> get(p, "/api/v1/namespaces/default/configmaps"));
        assertTrue(p.faults(FaultClass.CONNECTION_RESET) >= 1);
        assertTrue(p.log().stream().noneMatch(ProxiedRequest::forwarded));
    }

    @Test
    void chunkedWatchIsForwardedThenDropped() throws Exception {
        FaultProxy p = proxy(FaultPlan.only(FaultClass.WATCH_DROPPED, 1.0)
                .timing(FaultClass.WATCH_DROPPED, Duration.ofSeconds(2)));
        String n = name();
        fixture.client().configMaps().inNamespace("default").resource(cm(n)).create();
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create(p.url()
                        + "/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3D" + n)).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        CompletableFuture<List<String>> lines = CompletableFuture.supplyAsync(() -> {
            List<String> out = new ArrayList<>();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    out.add(line);
                }
            } catch (IOException e) {
                out.add("closed: " + e.getMessage());
            }
            return out;
        });
        // The stream ends by itself (no timeoutSeconds was asked): the proxy cut it.
        List<String> got = lines.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        assertTrue(got.get(0).contains("\"ADDED\""), got.toString());
        assertEquals(1, p.faults(FaultClass.WATCH_DROPPED));
    }

    @Test
    void resumedWatchGetsGoneAndFreshWatchDoesNot() throws Exception {
        FaultProxy p = proxy(FaultPlan.only(FaultClass.WATCH_GONE, 1.0));
        HttpResponse<String> r = get(p, "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1");
        assertEquals(200, r.statusCode());
        assertTrue(r.body().contains("\"type\":\"ERROR\"") && r.body().contains("\"code\":410"), r.body());
        // A list (no resourceVersion to resume from) is never answered Gone.
        assertEquals(200, get(p, "/api/v1/namespaces/default/configmaps").statusCode());
        assertEquals(1, p.faults(FaultClass.WATCH_GONE));
    }

    @Test
    void informerThroughDroppedAndGoneWatchesStillSeesEverything() throws Exception {
        FaultProxy p = proxy(new FaultPlan().rate(FaultClass.WATCH_DROPPED, 0.5).rate(FaultClass.WATCH_GONE, 0.3)
                .timing(FaultClass.WATCH_DROPPED, Duration.ofMillis(800)));
        KubernetesClient c = clientVia(p);
        SharedIndexInformer<ConfigMap> informer = c.configMaps().inNamespace("default").withLabel("app", "inf-faults")
                .inform();
        closing.add(informer::close);
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String n = name();
            created.add(n);
            fixture.client().configMaps().inNamespace("default").resource(new ConfigMapBuilder(cm(n)).editMetadata()
                    .addToLabels("app", "inf-faults").endMetadata().build()).create();
            Thread.sleep(200);
        }
        Await.waitFor("the informer recovers every object through dropped and expired watches", TIMEOUT, () -> informer.getStore().list().stream().map(x -> x.getMetadata().getName()).toList()
                .containsAll(created));
        assertTrue(p.faults(FaultClass.WATCH_DROPPED) + p.faults(FaultClass.WATCH_GONE) > 0);
    }

    @Test
    void webSocketWatchIsForwardedDroppedOrGone() throws Exception {
        FaultProxy p = proxy(FaultPlan.none());
        String n = name();
        fixture.client().configMaps().inNamespace("default").resource(cm(n)).create();
        WebSocketClient ws = fixture.vertx().createWebSocketClient();
        closing.add(() -> ws.close().await(5, TimeUnit.SECONDS));
        int port = URI.create(p.url()).getPort();
        String uri = "/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3D" + n;

        List<String> messages = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> closed = new CompletableFuture<>();
        // Handlers are set as the connection completes, on its context, so no early event is missed.
        WebSocket socket = ws.connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port).setURI(uri))
                .map(s -> s.textMessageHandler(messages::add).closeHandler(v -> closed.complete(null)))
                .await(10, TimeUnit.SECONDS);
        Await.waitFor("the ADDED event arrives", TIMEOUT, () -> messages.stream().anyMatch(m -> m.contains("\"ADDED\"")));
        assertFalse(closed.isDone(), "a watch without faults stays open");
        socket.close();

        p.plan(FaultPlan.only(FaultClass.WATCH_DROPPED, 1.0).timing(FaultClass.WATCH_DROPPED, Duration.ofMillis(500)));
        CompletableFuture<Void> dropped = new CompletableFuture<>();
        ws.connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port).setURI(uri))
                .map(s -> s.closeHandler(v -> dropped.complete(null))).await(10, TimeUnit.SECONDS);
        dropped.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);

        p.plan(FaultPlan.only(FaultClass.WATCH_GONE, 1.0));
        List<String> gone = new CopyOnWriteArrayList<>();
        ws.connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port).setURI(uri + "&resourceVersion=1"))
                .map(s -> s.textMessageHandler(gone::add)).await(10, TimeUnit.SECONDS);
        Await.waitFor("the 410 ERROR event arrives", TIMEOUT, () -> gone.stream().anyMatch(m -> m.contains("\"code\":410")));
        assertEquals(1, p.faults(FaultClass.WATCH_DROPPED));
        assertEquals(1, p.faults(FaultClass.WATCH_GONE));
    }

    @Test
    void partitionCutsWatchesAndRefusesRequestsUntilItEnds() throws Exception {
        FaultProxy p = proxy(FaultPlan.none());
        HttpResponse<InputStream> watch = http.send(HttpRequest.newBuilder(URI.create(p.url()
                + "/api/v1/namespaces/default/configmaps?watch=true")).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        CompletableFuture<Void> ended = CompletableFuture.runAsync(() -> {
            try (InputStream in = watch.body()) {
                in.transferTo(java.io.OutputStream.nullOutputStream());
            } catch (IOException ignored) {
                // cut off: what a partition does
            }
        });
        Thread.sleep(200);
        p.partition(Duration.ofSeconds(2));
        assertTrue(p.partitioned());
        ended.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        assertThrows(IOException.class, () -> get(p, "/api/v1/namespaces/default/configmaps"));
        Await.waitFor("the partition ends", TIMEOUT, () -> !p.partitioned());
        assertEquals(200, get(p, "/api/v1/namespaces/default/configmaps").statusCode());
        assertTrue(p.faults(FaultClass.PARTITION) >= 2, "the partition and the refused request: " + p.faultCounts());
    }

    @Test
    void theSameSeedGivesTheSameFaults() throws Exception {
        FaultPlan plan = new FaultPlan().rate(FaultClass.INTERNAL_ERROR, 0.3).rate(FaultClass.UNAVAILABLE, 0.3);
        List<List<Integer>> runs = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            FaultProxy p = proxy(plan);
            List<Integer> codes = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                codes.add(get(p, "/api/v1/namespaces/default/configmaps").statusCode());
            }
            runs.add(codes);
        }
        assertEquals(runs.get(0), runs.get(1));
        assertTrue(runs.get(0).contains(200) && runs.get(0).contains(500) && runs.get(0).contains(503), runs.toString());
    }

    @Test
    void refusesAnUpstreamThatIsNotPlainHttp() {
        Exception e = assertThrows(Exception.class, () -> FaultProxy.start(fixture.vertx(), "https://127.0.0.1:6443", 1,
                FaultPlan.none()).await(5, TimeUnit.SECONDS));
        assertTrue(e.getMessage().contains("plain http"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.only(FaultClass.SLOW, 1.5));
    }
}
