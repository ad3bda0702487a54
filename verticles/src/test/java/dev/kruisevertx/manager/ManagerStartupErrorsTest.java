package dev.kruisevertx.manager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Start-up failures the operator fixes in a setting: the whole entry point ({@code kruise-manager manager ...})
 * exits 2 with one line naming the setting and its value, for every listener and for the kubeconfig.
 */
@EnableKubernetesMockClient(crud = true)
class ManagerStartupErrorsTest {
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir
    Path dir;
    private Path kubeconfig;

    private record Run(int code, String err) {
    }

    @BeforeEach
    void kubeconfigForTheMock() throws IOException {
        kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: mock, cluster: {server: "%s", insecure-skip-tls-verify: true}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: mock, context: {cluster: mock, user: u}}]
                current-context: mock
                """.formatted(client.getMasterUrl()));
        TestManagers.installWebhookConfigurations(client);
    }

    private Run run(Map<String, String> env, String... flags) {
        List<String> args = new ArrayList<>(List.of("manager", "--kubeconfig=" + kubeconfig,
                "--enable-leader-election=false", "--metrics-addr=127.0.0.1:0", "--health-probe-addr=127.0.0.1:0",
                "--debug-addr=127.0.0.1:0"));
        args.addAll(List.of(flags));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = KruiseManagerMain.run(args.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8), env, false);
        return new Run(code, err.toString(StandardCharsets.UTF_8));
    }

    /** A port held by another process on every interface. */
    private static ServerSocket takenPort() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(0));
        return socket;
    }

    @Test
    void aTakenMetricsPortNamesTheFlagAndExitsTwo() throws IOException {
        try (ServerSocket taken = takenPort()) {
            Run r = run(Map.of("WEBHOOK_PORT", "0"), "--metrics-addr=127.0.0.1:" + taken.getLocalPort());
            assertEquals(2, r.code(), r.err());
            assertEquals("error: --metrics-addr 127.0.0.1:" + taken.getLocalPort() + ": address already in use\n", r.err());
        }
    }

    @Test
    void aTakenHealthProbePortNamesTheFlagAndExitsTwo() throws IOException {
        try (ServerSocket taken = takenPort()) {
            Run r = run(Map.of("WEBHOOK_PORT", "0"), "--health-probe-addr=:" + taken.getLocalPort());
            assertEquals(2, r.code(), r.err());
            assertEquals("error: --health-probe-addr :" + taken.getLocalPort() + ": address already in use\n", r.err());
        }
    }

    @Test
    void aTakenWebhookPortNamesTheVariableAndExitsTwoWithoutWaitingForTheTimeout() throws IOException {
        try (ServerSocket taken = takenPort()) {
            int port = taken.getLocalPort();
            long started = System.nanoTime();
            // The initialize timeout is long: the failure must come from the bind, not from waiting it out.
            Run r = run(Map.of("WEBHOOK_PORT", Integer.toString(port)), "--webhook-initialize-timeout=10m");
            assertEquals(2, r.code(), r.err());
            assertEquals("error: WEBHOOK_PORT " + port + " (the webhook's HTTPS listener on 0.0.0.0:" + port
                    + "): address already in use\n", r.err());
            assertTrue(System.nanoTime() - started < java.time.Duration.ofMinutes(5).toNanos());
        }
    }

    @Test
    void twoListenersOnOnePortAreRefusedBeforeAnythingBinds() {
        Run r = run(Map.of("WEBHOOK_PORT", "9876"), "--metrics-addr=:9876");
        assertEquals(2, r.code(), r.err());
        assertEquals("error: WEBHOOK_PORT 9876: port 9876 is already used by --metrics-addr :9876; "
                + "each listener needs its own port\n", r.err());
    }

    @Test
    void anEmptyKubeconfigSaysSoAndExitsTwo() {
        Run r = run(Map.of(), "--kubeconfig=/dev/null");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("error: --kubeconfig /dev/null: the file is empty"), r.err());
        assertFalse(r.err().contains("Cannot invoke"), r.err());
    }

    @Test
    void aKubeconfigWithoutContextsSaysSoAndExitsTwo() throws IOException {
        Path noContexts = dir.resolve("no-contexts");
        Files.writeString(noContexts, "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: https://x}}]\n");
        Run r = run(Map.of(), "--kubeconfig=" + noContexts);
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("error: --kubeconfig " + noContexts + ": has no contexts"), r.err());
    }

    @Test
    void aMetricsCertDirWithoutItsFilesNamesTheFlagAndExitsTwo() {
        Path empty = dir.resolve("no-certs");
        Run r = run(Map.of("WEBHOOK_PORT", "0"), "--metrics-secure", "--metrics-cert-dir=" + empty);
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("error: --metrics-cert-dir " + empty + ": cannot read tls.crt: NoSuchFileException"),
                r.err());
    }

    @Test
    void aTakenDebugPortNamesTheFlagAndExitsTwo() throws IOException {
        try (ServerSocket taken = takenPort()) {
            Run r = run(Map.of("WEBHOOK_PORT", "0"), "--debug-addr=127.0.0.1:" + taken.getLocalPort());
            assertEquals(2, r.code(), r.err());
            assertEquals("error: --debug-addr 127.0.0.1:" + taken.getLocalPort() + ": address already in use\n", r.err());
        }
    }
}
