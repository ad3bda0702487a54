package dev.kruisevertx.demo;

import dev.kruisevertx.manager.ManagerApp;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the product shows and where, run as {@code demo} runs it: the debug views never carry object contents (a
 * secret in a pod template's env stays out of every /debug answer), and everything the demo opens listens on
 * loopback only.
 */
class DemoExposureTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String SECRET = "hunter2-Sup3rS3cret-db-password";
    static final List<String> DEBUG_PATHS = List.of("/debug/plans", "/debug/plans?controller=cloneset",
            "/debug/plans?controller=statefulset", "/debug/controllers", "/debug/eventbus");

    static DemoRunner product;
    static KubernetesClient client;
    static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("demo-exposure");
        product = new DemoRunner(new DemoOptions(2, dir.resolve("kubeconfig"), 0, "127.0.0.1:0", "127.0.0.1:0",
                "127.0.0.1:0", "", null, true, Duration.ofSeconds(60)),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        product.start();
        client = product.cluster().client();
    }

    @AfterAll
    static void stop() throws Exception {
        if (product != null) {
            product.close();
        }
    }

    private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Every debug view, and /metrics, at this moment. Answers that carry the secret or are not 200 are collected in
     * {@code problems} (Await retries on assertion errors, so a failure inside a probe would go unnoticed).
     */
    private static Map<String, String> readAll(ManagerApp manager, List<String> problems) throws Exception {
        Map<String, String> bodies = new LinkedHashMap<>();
        for (String path : DEBUG_PATHS) {
            HttpResponse<String> r = get(manager.debugPort(), path);
            if (r.statusCode() != 200) {
                problems.add(path + " answered " + r.statusCode() + ": " + r.body());
            }
            bodies.put(path, r.body());
        }
        bodies.put("/metrics", get(manager.metricsPort(), "/metrics").body());
        bodies.forEach((path, body) -> {
            if (body.contains(SECRET)) {
                problems.add(path + " shows a pod template's env value:\n" + body);
            }
        });
        return bodies;
    }

    private static boolean ready(String apiVersion, String kind, String name, int replicas) {
        GenericKubernetesResource o = client.genericKubernetesResources(apiVersion, kind).inNamespace("default")
                .withName(name).get();
        if (o == null || !(o.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) {
            return false;
        }
        return Integer.valueOf(replicas).equals(status.get("readyReplicas"))
                && Integer.valueOf(replicas).equals(status.get("updatedReplicas"));
    }

    @Test
    void debugViewsNeverShowPodSpecContents() throws Exception {
        ManagerApp manager = product.manager();
        ManifestApplier.apply(client, """
                apiVersion: apps.kruise.io/v1alpha1
                kind: CloneSet
                metadata: {name: secret-web, namespace: default}
                spec:
                  replicas: 3
                  selector: {matchLabels: {app: secret-web}}
                  template:
                    metadata: {labels: {app: secret-web}}
                    spec:
                      containers:
                        - name: main
                          image: nginx:1.25
                          env: [{name: DB_PASSWORD, value: "%1$s"}]
                  updateStrategy: {type: InPlaceIfPossible}
                ---
                apiVersion: apps.kruise.io/v1beta1
                kind: StatefulSet
                metadata: {name: secret-db, namespace: default}
                spec:
                  replicas: 2
                  serviceName: secret-db
                  selector: {matchLabels: {app: secret-db}}
                  template:
                    metadata: {labels: {app: secret-db}}
                    spec:
                      containers:
                        - name: main
                          image: postgres:16
                          env: [{name: POSTGRES_PASSWORD, value: "%1$s"}]
                """.formatted(SECRET));
        // Read every view over and over while the controllers plan creates, waits and updates.
        List<String> problems = new java.util.concurrent.CopyOnWriteArrayList<>();
        AtomicBoolean planned = new AtomicBoolean();
        Await.waitFor("both workloads ready, their plans on /debug/plans, and no view showing the secret", WAIT, () -> {
            Map<String, String> bodies = readAll(manager, problems);
            String plans = bodies.get("/debug/plans");
            planned.compareAndSet(false, plans.contains("\"default/secret-web\"") && plans.contains("\"default/secret-db\""));
            return planned.get() && ready("apps.kruise.io/v1alpha1", "CloneSet", "secret-web", 3)
                    && ready("apps.kruise.io/v1beta1", "StatefulSet", "secret-db", 2);
        });
        assertEquals(List.of(), problems);
        // A new image and a new env value: the pods are replaced, so the plans create pods from the new template.
        client.genericKubernetesResources("apps.kruise.io/v1alpha1", "CloneSet").inNamespace("default")
                .withName("secret-web").patch(PatchContext.of(PatchType.JSON_MERGE), """
                        {"spec": {"template": {"spec": {"containers": [{"name": "main", "image": "nginx:1.26",
                          "env": [{"name": "DB_PASSWORD", "value": "%s-v2"}]}]}}}}""".formatted(SECRET));
        Await.waitFor("the update done, with no view showing the new secret either", WAIT, () -> {
            readAll(manager, problems);
            return ready("apps.kruise.io/v1alpha1", "CloneSet", "secret-web", 3)
                    && client.pods().inNamespace("default").withLabel("app", "secret-web").list().getItems().stream()
                    .allMatch(p -> p.getSpec().getContainers().get(0).getImage().equals("nginx:1.26"));
        });
        assertTrue(readAll(manager, problems).get("/debug/plans?controller=cloneset").contains("\"controller\":\"cloneset\""));
        assertEquals(List.of(), problems);
    }

    @Test
    void everythingTheDemoOpensListensOnLoopbackOnly() throws Exception {
        Optional<InetAddress> external = nonLoopbackAddress();
        assumeTrue(external.isPresent(), "this machine has no non-loopback IPv4 address to try");
        ManagerApp manager = product.manager();
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put("embedded API server", URI.create(product.cluster().url()).getPort());
        ports.put("webhook", manager.webhookPort());
        ports.put("metrics", manager.metricsPort());
        ports.put("health probes", manager.healthPort());
        ports.put("debug views", manager.debugPort());
        List<String> exposed = new ArrayList<>();
        for (Map.Entry<String, Integer> p : ports.entrySet()) {
            assertTrue(p.getValue() > 0, p.getKey() + " has no port");
            assertTrue(connects(InetAddress.getLoopbackAddress(), p.getValue()), p.getKey() + " is not on 127.0.0.1");
            if (connects(external.get(), p.getValue())) {
                exposed.add(p.getKey() + " on " + external.get().getHostAddress() + ":" + p.getValue());
            }
        }
        assertEquals(List.of(), exposed, "the demo must listen on loopback only");
    }

    @Test
    void demoDefaultsAreLoopback() {
        DemoCommand command = new DemoCommand();
        new CommandLine(command).parseArgs();
        DemoOptions options = command.toOptions();
        assertEquals("127.0.0.1:8080", options.metricsAddr());
        assertEquals("127.0.0.1:8000", options.healthProbeAddr());
        assertEquals("127.0.0.1:8090", options.debugAddr());
    }

    private static boolean connects(InetAddress address, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, port), 5000);
            return true;
        } catch (java.net.ConnectException e) {
            return false;
        } catch (IOException e) {
            fail("connecting to " + address + ":" + port + " neither succeeded nor was refused: " + e);
            return false;
        }
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws IOException {
        for (NetworkInterface nic : NetworkInterface.networkInterfaces().toList()) {
            if (nic.isUp() && !nic.isLoopback()) {
                Optional<InetAddress> v4 = nic.inetAddresses().filter(a -> a instanceof Inet4Address).findFirst();
                if (v4.isPresent()) {
                    return v4;
                }
            }
        }
        return Optional.empty();
    }
}
