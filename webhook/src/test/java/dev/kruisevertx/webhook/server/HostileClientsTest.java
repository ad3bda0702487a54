package dev.kruisevertx.webhook.server;

import dev.kruisevertx.webhook.WebhookDependencies;
import java.util.Map;
import dev.kruisevertx.features.FeatureGates;
import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.cloneset.CloneSetWebhooks;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.pod.PodMutatingPipeline;
import dev.kruisevertx.webhook.statefulset.StatefulSetWebhooks;
import dev.kruisevertx.webhook.testing.LogCapture;
import dev.kruisevertx.webhook.testing.RawTlsClient;
import dev.kruisevertx.webhook.testing.TestCerts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Clients that are slow, stop half-way, hold connections, send too much or send garbage. Every case must end in a
 * 4xx (or an AdmissionReview answer) or a closed connection within a bound: never a 5xx, never a connection held
 * open for good, never an ERROR with a stack trace. Limits are shrunk so each case takes seconds.
 */
class HostileClientsTest {
    static final Duration BOUND = Duration.ofSeconds(30);
    static final int MAX_BODY = 256 << 10;
    static final int INLINE = 16 << 10;

    final Vertx vertx = Vertx.vertx();
    final CertBundle certs = TestCerts.localhost();
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final List<RawTlsClient> clients = new ArrayList<>();
    WebhookServerVerticle server;

    @AfterEach
    void tearDown() throws Exception {
        for (RawTlsClient c : clients) {
            c.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    static ServerLimits limits() {
        return ServerLimits.defaults().withMaxBodyBytes(MAX_BODY).withInlineBodyBytes(INLINE)
                .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(2));
    }

    void start(ServerLimits limits, AdmissionRegistry registry) throws Exception {
        server = new WebhookServerVerticle("localhost", 0, limits, registry,
                KruiseWebhooks.registerConversions(new ConversionRegistry()), new WebhookMetrics(meters), certs);
        vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    void start(ServerLimits limits) throws Exception {
        AdmissionRegistry registry = new AdmissionRegistry();
        KruiseWebhooks.registerAll(registry, WebhookDependencies.of(FeatureGates.parse(
                "KruisePodReadinessGate=false,TemplateNoDefaults=false,KruiseDaemon=true,"
                        + "StatefulSetAutoDeletePVC=true,StatefulSetAutoResizePVCGate=true", Map.of()))
                .withPods((ns, name) -> Optional.empty()));
        start(limits, registry);
    }

    RawTlsClient connect() throws Exception {
        RawTlsClient c = RawTlsClient.connect(certs, server.actualPort());
        clients.add(c);
        return c;
    }

    double closed(String reason) {
        var c = meters.find(WebhookMetrics.CONNECTIONS_CLOSED).tag("reason", reason).counter();
        return c == null ? 0 : c.count();
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within " + BOUND + ": " + what);
            }
            Thread.sleep(50);
        }
    }

    static String podReview(String uid) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"" + uid + "\","
                + "\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},\"resource\":{\"resource\":\"pods\"},"
                + "\"operation\":\"CREATE\",\"namespace\":\"ns\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
                + "\"metadata\":{\"name\":\"p\",\"ownerReferences\":[{\"apiVersion\":\"apps.kruise.io/v1alpha1\","
                + "\"kind\":\"CloneSet\",\"name\":\"c\",\"uid\":\"u\",\"controller\":true}]},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}";
    }

    // ---- slow and idle clients -------------------------------------------------------------------------------

    @Test
    void partialHeadersAreCutOffAtTheHeaderTimeout() throws Exception {
        start(limits());
        RawTlsClient c = connect().send("POST /mutate-pod HTTP/1.1\r\nHost: localhost\r\n");
        c.awaitClosed(BOUND);
        assertTrue(closed(WebhookMetrics.HEADER_TIMEOUT) >= 1);
    }

    @Test
    void headersTrickledByteByByteAreCutOffToo() throws Exception {
        start(limits());
        RawTlsClient c = connect().send("POST /mutate-pod HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
        // Every byte resets a plain idle timeout; the header timeout counts from the connection's start.
        boolean cut = false;
        for (int i = 0; i < 100 && !cut; i++) {
            try {
                c.send("a");
                Thread.sleep(200);
            } catch (IOException e) {
                cut = true;
            }
        }
        assertTrue(cut, "a client trickling header bytes kept its connection for 20 s");
        assertTrue(closed(WebhookMetrics.HEADER_TIMEOUT) >= 1);
    }

    @Test
    void aBodyThatStopsGets408AndTheConnectionCloses() throws Exception {
        start(limits());
        RawTlsClient c = connect().send(RawTlsClient.postHead("/mutate-pod", 1000)).send("{\"apiVersion\":");
        RawTlsClient.Response r = c.readResponse();
        assertEquals(408, r.status(), r.body());
        assertTrue(r.connectionClose());
        assertTrue(r.body().contains("request body not received within 2s"), r.body());
        c.awaitClosed(BOUND);
        assertEquals(1.0, closed(WebhookMetrics.BODY_TIMEOUT));
    }

    @Test
    void idleKeptAliveConnectionsAreClosed() throws Exception {
        start(limits());
        RawTlsClient c = connect().send(RawTlsClient.get("/healthz"));
        assertEquals(200, c.readResponse().status());
        c.send(RawTlsClient.post("/mutate-pod", podReview("a")));
        assertEquals(200, c.readResponse().status(), "kept alive between requests");
        c.awaitClosed(BOUND);
        assertEquals(1.0, closed(WebhookMetrics.IDLE_TIMEOUT));
    }

    @Test
    void connectionsBeyondTheCapAreClosedAndTheCapFreesUp() throws Exception {
        start(limits().withMaxConnections(3).withTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(60),
                Duration.ofSeconds(60)));
        List<RawTlsClient> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RawTlsClient c = connect().send(RawTlsClient.get("/healthz"));
            assertEquals(200, c.readResponse().status());
            held.add(c);
        }
        RawTlsClient extra = connect();
        extra.awaitClosed(BOUND);
        assertEquals(1.0, closed(WebhookMetrics.LIMIT));

        held.get(0).close();
        await("a closed connection frees its slot", () -> server.openConnections() == 2);
        RawTlsClient next = connect().send(RawTlsClient.get("/healthz"));
        assertEquals(200, next.readResponse().status());
    }

    // ---- too much ---------------------------------------------------------------------------------------------

    @Test
    void anOversizedBodyGets413AndTheConnectionCloses() throws Exception {
        start(limits());
        RawTlsClient c = connect().send(RawTlsClient.postHead("/mutate-pod", MAX_BODY + 1));
        RawTlsClient.Response r = c.readResponse();
        assertEquals(413, r.status());
        assertTrue(r.connectionClose());
        assertTrue(r.body().contains("exceeds the limit of " + MAX_BODY + " bytes"), r.body());
        c.awaitClosed(BOUND);
    }

    @Test
    void anOversizedChunkedBodyGets413AndTheConnectionCloses() throws Exception {
        start(limits());
        RawTlsClient c = connect().send("POST /mutate-pod HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n");
        String chunk = Integer.toHexString(32 << 10) + "\r\n" + "x".repeat(32 << 10) + "\r\n";
        try {
            for (int sent = 0; sent <= MAX_BODY; sent += 32 << 10) {
                c.send(chunk);
            }
        } catch (IOException e) {
            // The server may close while chunks are still being sent.
        }
        RawTlsClient.Response r = c.readResponse();
        assertEquals(413, r.status());
        c.awaitClosed(BOUND);
    }

    @Test
    void largeRequestsBeyondTheBudgetGet429UntilBudgetFreesUp() throws Exception {
        int size = 100 << 10;
        start(limits().withLargeBodyBudgetBytes(MAX_BODY).withTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(60),
                Duration.ofSeconds(60)));
        RawTlsClient a = connect().send(RawTlsClient.postHead("/mutate-pod", size)).send("{");
        RawTlsClient b = connect().send(RawTlsClient.postHead("/mutate-pod", size)).send("{");
        await("two large bodies reserved", () -> server.largeBytesInFlight() == 2L * size);
        RawTlsClient c = connect().send(RawTlsClient.postHead("/mutate-pod", size));
        RawTlsClient.Response refused = c.readResponse();
        assertEquals(429, refused.status(), refused.body());
        assertTrue(refused.head().toLowerCase().contains("retry-after: 1"), refused.head());
        c.awaitClosed(BOUND);

        // A finishes its body (not JSON): a 400 from the worker, and its budget is returned.
        a.send("x".repeat(size - 1));
        RawTlsClient.Response bad = a.readResponse();
        assertEquals(400, bad.status(), bad.body());
        await("budget returned", () -> server.largeBytesInFlight() == size);
        String review = podReview("big");
        review = review.replace("\"metadata\":{", "\"metadata\":{\"annotations\":{\"pad\":\"" + "p".repeat(size - review.length() - 40) + "\"},");
        RawTlsClient d = connect().send(RawTlsClient.post("/mutate-pod", review));
        RawTlsClient.Response ok = d.readResponse();
        assertEquals(200, ok.status(), ok.body());
        assertTrue(ok.body().contains("\"allowed\":true"));
        b.close();
        await("budget returned when a client goes away", () -> server.largeBytesInFlight() == 0);
    }

    @Test
    void aLargeReviewWithMoreValuesThanTheHeapAllowsIsDeniedUnjudged() throws Exception {
        start(limits().withMaxJsonValues(5_000));
        StringBuilder containers = new StringBuilder();
        for (int i = 0; i < 3_000; i++) {
            containers.append(i == 0 ? "" : ",").append("{\"name\":\"c").append(i).append("\",\"image\":\"x\"}");
        }
        String review = wrap("\"object\":{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"CloneSet\","
                + "\"metadata\":{\"name\":\"x\"},\"spec\":{\"template\":{\"spec\":{\"containers\":[" + containers + "]}}}}");
        RawTlsClient c = connect().send(RawTlsClient.post(CloneSetWebhooks.MUTATE_PATH, review));
        RawTlsClient.Response r = c.readResponse();
        assertEquals(200, r.status(), r.body());
        JsonNode response = Json.MAPPER.readTree(r.body()).path("response");
        assertEquals("u", response.path("uid").asText());
        assertFalse(response.path("allowed").asBoolean());
        assertEquals(413, response.path("status").path("code").asInt());
        assertEquals("RequestEntityTooLarge", response.path("status").path("reason").asText());
        assertTrue(response.path("status").path("message").asText().contains("more than 5,000 JSON values"), r.body());

        c.send(RawTlsClient.post(WebhookServerVerticle.CONVERT, "[" + containers + "]"));
        RawTlsClient.Response conversion = c.readResponse();
        assertEquals(413, conversion.status(), conversion.body());

        // Under the limit, the same object is judged.
        String fewer = review.substring(0, review.indexOf("{\"name\":\"c1000\"")) + "{\"name\":\"last\",\"image\":\"x\"}]}}}}}}";
        c.send(RawTlsClient.post(CloneSetWebhooks.MUTATE_PATH, fewer));
        RawTlsClient.Response judged = c.readResponse();
        assertEquals(200, judged.status(), judged.body());
        assertTrue(judged.body().contains("\"allowed\":true"), judged.body());
        assertEquals(2.0, meters.get(WebhookMetrics.REQUESTS).tag("result", WebhookMetrics.TOO_LARGE).counters()
                .stream().mapToDouble(x -> x.count()).sum());
    }

    // ---- going away -------------------------------------------------------------------------------------------

    @Test
    void clientsDisconnectingMidBodyLeaveNoErrorAndNoStackTrace() throws Exception {
        start(limits());
        try (LogCapture logs = LogCapture.open()) {
            for (int i = 0; i < 10; i++) {
                RawTlsClient small = connect().send(RawTlsClient.postHead("/mutate-pod", 4000)).send("{\"a\":");
                RawTlsClient large = connect().send(RawTlsClient.postHead("/mutate-apps-kruise-io-cloneset", 200_000))
                        .send("{\"b\":" + "1".repeat(50_000));
                small.close();
                large.close();
            }
            await("every connection closed on the server", () -> server.openConnections() == 0);
            await("every large-body reservation returned", () -> server.largeBytesInFlight() == 0);
            RawTlsClient c = connect().send(RawTlsClient.get("/healthz"));
            assertEquals(200, c.readResponse().status());
            assertEquals(List.of(), logs.problems(), "a client going away is routine");
        }
    }

    // ---- isolation ----------------------------------------------------------------------------------------------

    @Test
    void aLargeRequestIsJudgedOffTheEventLoopWhileSmallOnesAndHealthzGoOn() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<String> largeThread = new AtomicReference<>();
        AtomicReference<String> smallThread = new AtomicReference<>();
        AdmissionRegistry registry = new AdmissionRegistry().register("/judge", request -> {
            boolean large = request.object().path("metadata").has("annotations");
            (large ? largeThread : smallThread).set(Thread.currentThread().getName()
                    + (Context.isOnEventLoopThread() ? " (event loop)" : ""));
            if (large) {
                try {
                    // Blocking is allowed on the large-request worker; on the event loop it would stall everything.
                    assertTrue(release.await(60, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Future.succeededFuture(AdmissionResponse.allow());
        });
        start(limits().withTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ofSeconds(60)), registry);
        String big = podReview("big").replace("\"metadata\":{", "\"metadata\":{\"annotations\":{\"pad\":\""
                + "p".repeat(INLINE * 4) + "\"},");
        RawTlsClient a = connect().send(RawTlsClient.post("/judge", big));
        await("the large request is being judged", () -> largeThread.get() != null);

        RawTlsClient b = connect().send(RawTlsClient.get("/healthz"));
        assertEquals(200, b.readResponse().status());
        b.send(RawTlsClient.post("/judge", podReview("small")));
        RawTlsClient.Response small = b.readResponse();
        assertEquals(200, small.status());
        assertTrue(small.body().contains("\"uid\":\"small\""));

        release.countDown();
        RawTlsClient.Response large = a.readResponse();
        assertEquals(200, large.status());
        assertTrue(large.body().contains("\"uid\":\"big\""));
        assertTrue(largeThread.get().startsWith("kruise-webhook-large-requests-"), largeThread.get());
        assertTrue(smallThread.get().endsWith("(event loop)"), smallThread.get());
    }

    // ---- garbage ------------------------------------------------------------------------------------------------

    @Test
    void malformedBodiesGet4xxOrAnAnswerNeverA5xx() throws Exception {
        start(limits());
        String deep = "[".repeat(5000) + "]".repeat(5000);
        // Jackson refuses nesting beyond 1,000 levels; an unknown field nested just below that inside a container
        // must not overflow any recursion (decoding, defaulting, diffing, encoding).
        String deepButAllowed = "{\"x\":".repeat(985) + "1" + "}".repeat(985);
        String deepArrayButAllowed = "[".repeat(985) + "]".repeat(985);
        List<String> bodies = new ArrayList<>(List.of(
                "", "{{{", "null", "[]", "123", "\"text\"", "{}", deep,
                "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}",
                "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":[]}",
                wrap("\"oldObject\":[1],\"object\":{}"),
                wrap("\"object\":" + deep),
                wrap("\"object\":{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"CloneSet\",\"spec\":\"nope\"}"),
                wrap("\"object\":{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"CloneSet\",\"spec\":{\"template\":"
                        + "{\"spec\":{\"containers\":{\"name\":\"c\"}}}}}"),
                wrap("\"object\":{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"CloneSet\",\"metadata\":"
                        + "{\"name\":\"x\"},\"spec\":{\"replicas\":1" + "0".repeat(3000) + "}}"),
                wrap("\"object\":{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"CloneSet\",\"metadata\":"
                        + "{\"name\":\"x\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"template\":{\"metadata\":"
                        + "{\"labels\":{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"x\":"
                        + deepButAllowed + "}]}}}}"),
                wrap("\"object\":{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"StatefulSet\",\"metadata\":"
                        + "{\"name\":\"x\"},\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\","
                        + "\"x\":" + deepButAllowed + "}]}}}}"),
                wrap("\"object\":{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"StatefulSet\",\"spec\":[1,2]}"),
                wrap("\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"ownerReferences\":"
                        + "[{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"CloneSet\",\"name\":\"c\",\"uid\":\"u\","
                        + "\"controller\":true}]},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"x\":"
                        + deepArrayButAllowed + "}]}}"),
                wrap("\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"labels\":{\"a\":\"b\",\"a\":\"c\"}}}")));
        byte[] notUtf8 = {'{', '"', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}'};
        List<String> paths = List.of(CloneSetWebhooks.MUTATE_PATH, CloneSetWebhooks.VALIDATE_PATH,
                StatefulSetWebhooks.MUTATE_PATH, StatefulSetWebhooks.VALIDATE_PATH, PodMutatingPipeline.PATH,
                WebhookServerVerticle.CONVERT);
        RawTlsClient c = connect();
        int answered = 0;
        for (String path : paths) {
            for (String body : bodies) {
                // Each body small (judged on the event loop) and padded past the inline size (judged on a worker).
                for (String b : List.of(body, body + " ".repeat(INLINE + 1))) {
                    answered += postExpectingNo5xx(c, path, b.getBytes(StandardCharsets.UTF_8));
                }
            }
            answered += postExpectingNo5xx(c, path, notUtf8);
        }
        assertEquals(paths.size() * (bodies.size() * 2 + 1), answered);
    }

    static String wrap(String fields) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\","
                + "\"kind\":{\"group\":\"apps.kruise.io\",\"version\":\"v1alpha1\",\"kind\":\"CloneSet\"},"
                + "\"resource\":{\"resource\":\"pods\"},\"operation\":\"CREATE\",\"namespace\":\"ns\"," + fields + "}}";
    }

    int postExpectingNo5xx(RawTlsClient c, String path, byte[] body) throws Exception {
        byte[] head = RawTlsClient.postHead(path, body.length).getBytes(StandardCharsets.US_ASCII);
        c.send(head).send(body);
        RawTlsClient.Response r = c.readResponse();
        String what = path + " with " + new String(body, 0, Math.min(body.length, 120), StandardCharsets.UTF_8);
        assertTrue(r.status() < 500, what + " -> " + r.status() + " " + r.body());
        if (r.status() == 200 && !path.equals(WebhookServerVerticle.CONVERT)) {
            JsonNode status = Json.MAPPER.readTree(r.body()).path("response").path("status");
            assertTrue(status.path("code").asInt(200) < 500, what + " -> " + r.body());
        }
        if (r.status() == 200 && path.equals(WebhookServerVerticle.CONVERT)) {
            assertTrue(r.body().contains("ConversionReview"), r.body());
        }
        return 1;
    }
}
