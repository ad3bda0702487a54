package dev.kruisevertx.agent;

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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** {@link NodeAgentMain} as a real process: exit codes, messages, SIGTERM. */
class NodeAgentMainProcessTest {
    static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private Process launch(boolean withNodeName, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), NodeAgentMain.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command)
                // Merged: under test the log configuration (log4j2-test.xml) writes to stdout.
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("output").toFile());
        pb.environment().remove("NODE_NAME");
        pb.environment().remove("KUBECONFIG");
        if (withNodeName) {
            pb.environment().put("NODE_NAME", "proc-node");
        }
        return pb.start();
    }

    private int exitOf(Process p) throws InterruptedException {
        if (!p.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("process did not exit within " + WAIT);
        }
        return p.exitValue();
    }

    private String output() throws IOException {
        return Files.readString(dir.resolve("output"));
    }

    @Test
    void missingNodeNameExitsTwoWithTheReason() throws Exception {
        Process p = launch(false, "--addr=127.0.0.1:0");
        assertEquals(2, exitOf(p));
        assertTrue(output().contains("the node name is required: set NODE_NAME or pass --node-name"), output());
    }

    @Test
    void unknownFlagExitsTwo() throws Exception {
        Process p = launch(true, "--no-such-flag=1");
        assertEquals(2, exitOf(p));
        assertTrue(output().contains("unknown flag: --no-such-flag=1"), output());
    }

    @Test
    void helpPrintsUsageAndExitsZero() throws Exception {
        Process p = launch(false, "--help");
        assertEquals(0, exitOf(p));
        assertTrue(output().contains("Usage: java -jar kruise-node-agent.jar"));
    }

    @Test
    void missingKubeconfigExitsTwo() throws Exception {
        // A setting to fix, like a bad flag: exit 2 (it was 1 before empty and incomplete files got their own checks).
        Process p = launch(true, "--addr=127.0.0.1:0", "--kubeconfig=" + dir.resolve("absent"));
        assertEquals(2, exitOf(p));
        assertTrue(output().contains("cannot start: --kubeconfig " + dir.resolve("absent") + ": no such file"), output());
    }

    @Test
    void emptyKubeconfigSaysSoAndExitsTwo() throws Exception {
        Process p = launch(true, "--addr=127.0.0.1:0", "--kubeconfig=/dev/null");
        assertEquals(2, exitOf(p));
        assertTrue(output().contains("cannot start: --kubeconfig /dev/null: the file is empty"), output());
        assertFalse(output().contains("Cannot invoke"), output());
    }

    @Test
    void aTakenAddrPortNamesTheFlagAndExitsTwo() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new java.net.InetSocketAddress(0));
            Process p = launch(true, "--addr=:" + taken.getLocalPort());
            assertEquals(2, exitOf(p));
            assertTrue(output().contains("cannot start: --addr :" + taken.getLocalPort() + ": address already in use"),
                    output());
        }
    }

    @Test
    void servesHealthzAndStopsCleanlyOnSigterm() throws Exception {
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443"}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                current-context: x
                """);
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Process p = launch(true, "--addr=127.0.0.1:" + port, "--kubeconfig=" + kubeconfig,
                "--runtime-root=" + dir.resolve("hostvarrun"), "--feature-gates=KruiseDaemon=true");
        try {
            HttpClient http = HttpClient.newHttpClient();
            long until = System.nanoTime() + WAIT.toNanos();
            int status = -1;
            while (status != 200 && System.nanoTime() < until && p.isAlive()) {
                try {
                    status = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
                            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
                } catch (IOException notYet) {
                    Thread.sleep(100);
                }
            }
            assertEquals(200, status, "healthz never answered; output:\n" + output());
            while (!output().contains("node agent ready") && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            assertTrue(output().contains("node agent ready"), output());

            p.destroy(); // SIGTERM
            int exit = exitOf(p);
            assertEquals(143, exit, "JVM ends with 128+SIGTERM after the shutdown hook; output:\n" + output());
            assertTrue(output().contains("node agent stopped"), output());
            assertTrue(output().contains("node agent starting for node proc-node (feature gates 'KruiseDaemon=true')"), output());
        } finally {
            p.destroyForcibly();
        }
    }
}
