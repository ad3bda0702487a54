package dev.kruisevertx.agent;

import dev.kruisevertx.agent.cri.Backoff;
import dev.kruisevertx.agent.cri.CriClient;
import dev.kruisevertx.cli.InvalidConfigurationException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.server.GrpcServer;
import dev.kruisevertx.cri.v1.ImageServiceGrpcService;
import dev.kruisevertx.cri.v1.ListImagesResponse;
import dev.kruisevertx.cri.v1.RuntimeServiceGrpcService;
import dev.kruisevertx.cri.v1.VersionResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The agent in-process: endpoints, runtime found late, clear start failures. */
class NodeAgentTest {
    static final Duration WAIT = Duration.ofSeconds(60);
    static final Backoff FAST = new Backoff(Duration.ofMillis(50), Duration.ofMillis(200), 2.0);

    @TempDir
    Path dir;
    Path kubeconfig;
    NodeAgent agent;
    Vertx runtimeVertx;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void kubeconfig() throws IOException {
        // The agent builds its API client at start but contacts the server only when a job needs it.
        kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: c
                  cluster: {server: "https://127.0.0.1:6443", insecure-skip-tls-verify: true}
                users:
                - name: u
                  user: {token: test}
                contexts:
                - name: ctx
                  context: {cluster: c, user: u}
                current-context: ctx
                """);
    }

    @AfterEach
    void stop() throws Exception {
        if (agent != null) {
            get(agent.stop());
        }
        if (runtimeVertx != null) {
            get(runtimeVertx.close());
        }
    }

    private AgentOptions options(String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("--addr=127.0.0.1:0", "--kubeconfig=" + kubeconfig,
                "--runtime-root=" + dir.resolve("hostvarrun")));
        args.addAll(List.of(extra));
        return AgentOptions.parse(args, Map.of("NODE_NAME", "node-1"));
    }

    private static <T> T get(Future<T> f) throws Exception {
        try {
            return f.toCompletionStage().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }

    private HttpResponse<String> httpGet(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + agent.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private void waitForMetric(String line) throws Exception {
        long until = System.nanoTime() + WAIT.toNanos();
        String body = "";
        while (System.nanoTime() < until) {
            body = httpGet("/metrics").body();
            if (body.contains(line)) {
                return;
            }
            Thread.sleep(50);
        }
        fail("metrics never showed '" + line + "':\n" + body);
    }

    /** A minimal CRI runtime on {@code socket}: answers Version and ListImages. */
    private void startFakeRuntime(Path socket) throws Exception {
        if (runtimeVertx == null) {
            runtimeVertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        }
        Files.createDirectories(socket.getParent());
        GrpcServer grpc = GrpcServer.server(runtimeVertx);
        grpc.callHandler(RuntimeServiceGrpcService.Version, req -> req.handler(msg -> req.response()
                .end(VersionResponse.newBuilder().setRuntimeName("fake").setRuntimeApiVersion("v1").build())));
        grpc.callHandler(ImageServiceGrpcService.ListImages, req -> req.handler(msg -> req.response()
                .end(ListImagesResponse.getDefaultInstance())));
        HttpServer server = get(runtimeVertx.createHttpServer().requestHandler(grpc)
                .listen(SocketAddress.domainSocketAddress(socket.toString())));
        assertTrue(server.actualPort() <= 0);
    }

    @Test
    void servesHealthAndMetricsAndFindsARuntimeThatStartsLater() throws Exception {
        agent = new NodeAgent(options(), FAST);
        get(agent.start());

        HttpResponse<String> health = httpGet("/healthz");
        assertEquals(200, health.statusCode());
        assertEquals("ok", health.body());
        HttpResponse<String> metrics = httpGet("/metrics");
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.body().contains("kruise_agent_runtime_ready 0.0"), metrics.body());
        assertTrue(metrics.body().contains("jvm_memory_used_bytes"), "JVM metrics missing");
        assertFalse(agent.runtimeReady());

        // The runtime appears after the agent: the back-off keeps looking until it answers.
        startFakeRuntime(dir.resolve("hostvarrun/containerd/containerd.sock"));
        CriClient runtime = get(agent.runtime());

        assertEquals(dir.resolve("hostvarrun/containerd/containerd.sock"), runtime.endpoint().socket());
        assertTrue(agent.runtimeReady());
        waitForMetric("kruise_agent_runtime_ready 1.0");
        assertEquals("fake", get(runtime.version()).getRuntimeName());
        waitForMetric("kruise_agent_cri_requests_seconds_count{code=\"OK\",method=\"RuntimeService/Version\"} 1");
        assertEquals("node-1", options().nodeName());
        assertEquals("https://127.0.0.1:6443/", agent.kube().getMasterUrl().toString());
    }

    @Test
    void configuredRuntimeEndpointIsUsed() throws Exception {
        Path socket = dir.resolve("elsewhere/cri.sock");
        startFakeRuntime(socket);
        agent = new NodeAgent(options("--runtime-endpoint=unix://" + socket), FAST);
        get(agent.start());

        assertEquals(socket, get(agent.runtime()).endpoint().socket());
    }

    @Test
    void portInUseFailsTheStartWithTheAddress() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            agent = new NodeAgent(AgentOptions.parse(List.of("--addr=127.0.0.1:" + taken.getLocalPort(),
                    "--kubeconfig=" + kubeconfig), Map.of("NODE_NAME", "n")), FAST);
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> get(agent.start()));
            // The agent's Vert.x runs on epoll: its native bind error is named like the JDK one.
            InvalidConfigurationException named = InvalidConfigurationException.in(e);
            assertEquals("--addr 127.0.0.1:" + taken.getLocalPort() + ": address already in use",
                    named == null ? String.valueOf(e) : named.getMessage());
        }
    }

    @Test
    void missingKubeconfigFailsTheStart() {
        agent = new NodeAgent(AgentOptions.parse(List.of("--addr=127.0.0.1:0", "--kubeconfig=" + dir.resolve("nope")),
                Map.of("NODE_NAME", "n")), FAST);
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> get(agent.start()));
        InvalidConfigurationException named = InvalidConfigurationException.in(e);
        assertEquals("--kubeconfig " + dir.resolve("nope") + ": no such file",
                named == null ? String.valueOf(e) : named.getMessage());
    }
}
