package dev.kruisevertx.sim;

import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** kubectl against the embedded API server (skipped where kubectl is not installed). */
class KubectlTest {
    static ClusterFixture fixture;
    @TempDir
    static Path dir;
    static Path kubeconfig;

    @BeforeAll
    static void start() {
        assumeTrue(kubectlAvailable(), "kubectl is not installed");
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(2).setCrdDirectory(Path.of("src/test/resources/crds")));
        kubeconfig = dir.resolve("kubeconfig");
        fixture.cluster().writeKubeconfig(kubeconfig);
    }

    @AfterAll
    static void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    static boolean kubectlAvailable() {
        try {
            return new ProcessBuilder("kubectl", "version", "--client").redirectErrorStream(true).start().waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    record Result(int code, String output) {
    }

    static Result kubectl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(), "--cache-dir", dir.resolve("cache").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Result(p.exitValue(), out);
    }

    @Test
    void getApplyDescribeDelete() throws Exception {
        Result nodes = kubectl("get", "nodes");
        assertEquals(0, nodes.code(), nodes.output());
        assertTrue(nodes.output().lines().anyMatch(l -> l.startsWith("sim-node-0") && l.contains(" Ready ")), nodes.output());

        Path manifest = dir.resolve("pod.yaml");
        Files.writeString(manifest, """
                apiVersion: v1
                kind: Pod
                metadata: {name: kubectl-pod, labels: {app: k}}
                spec:
                  containers: [{name: c, image: "nginx:1.25"}]
                ---
                apiVersion: test.kruise-vertx.dev/v1alpha1
                kind: Widget
                metadata: {name: kw}
                spec: {replicas: 2}
                """);
        Result apply = kubectl("apply", "-f", manifest.toString());
        assertEquals(0, apply.code(), apply.output());
        Result again = kubectl("apply", "-f", manifest.toString());
        assertEquals(0, again.code(), again.output());

        Await.waitFor("kubectl shows the pod Running", Duration.ofSeconds(30), () -> kubectl("get", "pods", "-l", "app=k").output(),
                out -> out.lines().anyMatch(l -> l.startsWith("kubectl-pod") && l.contains("1/1") && l.contains("Running")));
        Result widgets = kubectl("get", "widgets");
        assertEquals(0, widgets.code(), widgets.output());
        assertTrue(widgets.output().contains("kw"), widgets.output());
        Result shortName = kubectl("get", "wd", "kw", "-o", "jsonpath={.spec.replicas}");
        assertEquals("2", shortName.output().trim());
        Result scale = kubectl("scale", "widget/kw", "--replicas=4");
        assertEquals(0, scale.code(), scale.output());
        assertEquals("4", kubectl("get", "widget", "kw", "-o", "jsonpath={.spec.replicas}").output().trim());
        Result label = kubectl("label", "pod", "kubectl-pod", "extra=1");
        assertEquals(0, label.code(), label.output());
        Result describe = kubectl("describe", "pod", "kubectl-pod");
        assertEquals(0, describe.code(), describe.output());
        Result delete = kubectl("delete", "pod", "kubectl-pod", "--wait=true", "--timeout=30s");
        assertEquals(0, delete.code(), delete.output());
        Result gone = kubectl("get", "pod", "kubectl-pod");
        assertTrue(gone.output().contains("NotFound"), gone.output());
    }
}
