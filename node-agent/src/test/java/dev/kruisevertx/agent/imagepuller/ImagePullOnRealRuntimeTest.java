package dev.kruisevertx.agent.imagepuller;

import dev.kruisevertx.agent.cri.CriEndpoint;
import dev.kruisevertx.agent.cri.GrpcCriClient;
import dev.kruisevertx.agent.cri.RealRuntime;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The image puller against the real containerd and loopback registry of {@code cri-setup.sh}: a public image, a
 * missing one, a registry that never answers (the pull times out) and a registry behind basic auth (refused without
 * the pull secret, pulled with it). Skipped without the runtime, as the other real-runtime tests.
 */
class ImagePullOnRealRuntimeTest {
    static final String REGISTRY = "127.0.0.1:5000";
    static final String USER = "puller";
    static final String PASSWORD = "pull-pass-1";

    static ClusterFixture cluster;
    static Vertx vertx;
    static GrpcCriClient cri;
    final List<ImagePullerAgent> agents = new ArrayList<>();
    final List<AutoCloseable> cleanups = new ArrayList<>();

    @BeforeAll
    static void start() {
        CriEndpoint endpoint = RealRuntime.endpoint();
        cluster = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setAdmission(false)
                .setCrdDirectory(ClusterFixture.findCrdDirectory()));
        cluster.client().namespaces().resource(new NamespaceBuilder().withNewMetadata()
                .withName(ImagePullerAgentTest.SECRETS_NS).endMetadata().build()).create();
        // The NodeImage helpers of ImagePullerAgentTest read this field; test classes run one after another.
        ImagePullerAgentTest.client = cluster.client();
        vertx = RealRuntime.nativeVertx();
        cri = new GrpcCriClient(vertx, endpoint, Duration.ofSeconds(60), null);
    }

    @AfterAll
    static void stopAll() {
        if (cri != null) {
            RealRuntime.await(cri.close());
            RealRuntime.await(vertx.close());
        }
        if (cluster != null) {
            cluster.close();
        }
        ImagePullerAgentTest.client = null;
    }

    @AfterEach
    void stopAgents() throws Exception {
        for (ImagePullerAgent a : agents) {
            RealRuntime.await(a.stop());
        }
        for (AutoCloseable c : cleanups) {
            c.close();
        }
    }

    String agentOn() {
        String node = "real-" + ImagePullerAgentTest.node();
        ImagePullerAgent a = new ImagePullerAgent(vertx, cluster.client(), cri, node, 2, 50, 50, Clock.systemUTC());
        agents.add(a);
        RealRuntime.await(a.start());
        return node;
    }

    static ImageTagSpec always(String tag, int timeoutSeconds) {
        ImageTagSpec t = ImagePullerAgentTest.tag(tag, 1, p -> p.setTimeoutSeconds(timeoutSeconds));
        t.setImagePullPolicy("Always");
        return t;
    }

    @Test
    void aPublicImageIsPulled() {
        String node = agentOn();
        String image = REGISTRY + "/test/busybox";
        ImagePullerAgentTest.create(node, Map.of(image, ImagePullerAgentTest.image(always("1", 60))));
        ImageTagStatus done = ImagePullerAgentTest.awaitPhase(node, image, "1", 1, "Succeeded");
        assertTrue(done.getImageID().startsWith(image + "@sha256:"), done.getImageID());
        assertEquals(100, done.getProgress());
    }

    @Test
    void aMissingImageFailsWithContainerdsMessage() {
        String node = agentOn();
        String image = REGISTRY + "/test/absent-image";
        ImagePullerAgentTest.create(node, Map.of(image, ImagePullerAgentTest.image(always("1", 60))));
        ImageTagStatus failed = ImagePullerAgentTest.awaitPhase(node, image, "1", 1, "Failed");
        assertTrue(failed.getMessage().startsWith("rpc error: code = NotFound desc = "), failed.getMessage());
        assertTrue(failed.getMessage().contains("not found"), failed.getMessage());
    }

    @Test
    void aRegistryThatNeverAnswersTimesOut() throws Exception {
        // Accepts connections and never says a word: the TLS handshake (or HTTP request) hangs.
        ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        List<Socket> held = new ArrayList<>();
        Thread acceptor = new Thread(() -> {
            while (!silent.isClosed()) {
                try {
                    held.add(silent.accept());
                } catch (IOException e) {
                    return;
                }
            }
        }, "silent-registry");
        acceptor.setDaemon(true);
        acceptor.start();
        cleanups.add(() -> {
            silent.close();
            for (Socket s : held) {
                s.close();
            }
        });
        String node = agentOn();
        String image = "127.0.0.1:" + silent.getLocalPort() + "/test/slow";
        ImagePullerAgentTest.create(node, Map.of(image, ImagePullerAgentTest.image(always("1", 2))));
        ImageTagStatus failed = ImagePullerAgentTest.awaitPhase(node, image, "1", 1, "Failed");
        assertEquals("pulling image " + image + ":1 timed out after 2s", failed.getMessage());
    }

    @Test
    void aRegistryWithBasicAuthNeedsThePullSecret() throws Exception {
        int port = basicAuthProxy();
        String registry = "127.0.0.1:" + port;
        String image = registry + "/test/busybox";

        String anonymous = agentOn();
        ImagePullerAgentTest.create(anonymous, Map.of(image, ImagePullerAgentTest.image(always("1", 60))));
        ImageTagStatus refused = ImagePullerAgentTest.awaitPhase(anonymous, image, "1", 1, "Failed");
        assertTrue(refused.getMessage().contains("401"), refused.getMessage());

        String withSecret = agentOn();
        ImagePullerAgentTest.dockerSecret("registry-" + withSecret,
                RegistryAuthsTest.auths(registry, USER, PASSWORD));
        ImageSpec spec = ImagePullerAgentTest.image(always("1", 60));
        spec.setPullSecrets(List.of(ImagePullerAgentTest.ref("registry-" + withSecret)));
        ImagePullerAgentTest.create(withSecret, Map.of(image, spec));
        ImageTagStatus done = ImagePullerAgentTest.awaitPhase(withSecret, image, "1", 1, "Succeeded");
        assertTrue(done.getImageID().startsWith(image + "@sha256:"), done.getImageID());
    }

    /**
     * The loopback registry behind HTTP basic auth: a proxy that answers 401 with a Basic challenge unless the
     * request carries the test's user and password. containerd is told (hosts.toml) to speak plain HTTP to it.
     */
    int basicAuthProxy() throws Exception {
        String expected = "Basic " + Base64.getEncoder().encodeToString((USER + ":" + PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
        HttpClient upstream = vertx.createHttpClient();
        HttpServer server = RealRuntime.await(vertx.createHttpServer().requestHandler(req -> {
            if (!expected.equals(req.getHeader("Authorization"))) {
                req.response().setStatusCode(401).putHeader("WWW-Authenticate", "Basic realm=\"kruise-test\"")
                        .putHeader("Docker-Distribution-API-Version", "registry/2.0").end();
                return;
            }
            req.pause();
            upstream.request(req.method(), 5000, "127.0.0.1", req.uri()).onSuccess(out -> {
                req.headers().forEach((k, v) -> {
                    if (!k.equalsIgnoreCase("host") && !k.equalsIgnoreCase("authorization")) {
                        out.putHeader(k, v);
                    }
                });
                out.send(req).onSuccess(resp -> {
                    req.response().setStatusCode(resp.statusCode());
                    resp.headers().forEach((k, v) -> {
                        if (!k.equalsIgnoreCase("transfer-encoding") && !k.equalsIgnoreCase("connection")) {
                            req.response().putHeader(k, v);
                        }
                    });
                    if (resp.getHeader("Content-Length") == null) {
                        req.response().setChunked(true);
                    }
                    resp.pipeTo(req.response());
                }).onFailure(err -> req.response().setStatusCode(502).end());
            }).onFailure(err -> req.response().setStatusCode(502).end());
        }).listen(0, "127.0.0.1"));
        int port = server.actualPort();
        String base = System.getenv().getOrDefault("KRUISE_CRI_BASE", "/var/tmp/kruise-cri");
        Path hosts = Path.of(base, "certs.d", "127.0.0.1:" + port);
        Files.createDirectories(hosts);
        Files.writeString(hosts.resolve("hosts.toml"), "server = \"http://127.0.0.1:" + port + "\"\n"
                + "[host.\"http://127.0.0.1:" + port + "\"]\n  capabilities = [\"pull\", \"resolve\"]\n"
                + "  skip_verify = true\n");
        cleanups.add(() -> {
            RealRuntime.await(server.close());
            RealRuntime.await(upstream.close());
            try (Stream<Path> files = Files.walk(hosts)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        });
        return port;
    }
}
