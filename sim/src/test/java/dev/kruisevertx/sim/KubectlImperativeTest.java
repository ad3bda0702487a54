package dev.kruisevertx.sim;

import dev.kruisevertx.sim.testing.ClusterFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * kubectl's imperative commands against the embedded API server. For built-in kinds current kubectl sends
 * application/vnd.kubernetes.protobuf bodies (create, replace, delete options) and JSON patches (scale, set, label).
 * Skipped where kubectl is not installed.
 */
class KubectlImperativeTest {
    static ClusterFixture fixture;
    @TempDir
    static Path dir;
    static Path kubeconfig;

    @BeforeAll
    static void start() {
        assumeTrue(KubectlTest.kubectlAvailable(), "kubectl is not on the PATH");
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(2));
        kubeconfig = dir.resolve("kubeconfig");
        fixture.cluster().writeKubeconfig(kubeconfig);
    }

    @AfterAll
    static void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    static String ok(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(), "--cache-dir",
                dir.resolve("cache").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "kubectl " + String.join(" ", args) + " did not finish");
        assertEquals(0, p.exitValue(), "kubectl " + String.join(" ", args) + ": " + out);
        return out.trim();
    }

    static String jsonpath(String resource, String namespace, String path) throws Exception {
        return ok("get", resource, "-n", namespace, "-o", "jsonpath={" + path + "}");
    }

    @Test
    void createScaleSetLabelAndDelete() throws Exception {
        ok("create", "namespace", "imp");
        assertEquals("imp", ok("get", "namespace", "imp", "-o", "jsonpath={.metadata.labels.kubernetes\\.io/metadata\\.name}"));

        ok("create", "deployment", "web", "--image=nginx:1.25", "-n", "imp");
        ok("create", "configmap", "c", "--from-literal=a=b", "-n", "imp");
        ok("create", "secret", "generic", "s", "--from-literal=k=v", "-n", "imp");
        ok("create", "job", "j", "--image=busybox:1.36", "-n", "imp", "--", "sh", "-c", "exit 0");
        ok("create", "pdb", "p", "--selector=app=web", "--min-available=1", "-n", "imp");
        ok("create", "serviceaccount", "sa", "-n", "imp");
        ok("create", "service", "clusterip", "svc", "--tcp=80:8080", "-n", "imp");
        ok("run", "solo", "--image=nginx:1.25", "--labels=app=solo", "-n", "imp");

        assertEquals("nginx:1.25", jsonpath("deployment/web", "imp", ".spec.template.spec.containers[0].image"));
        assertEquals("b", jsonpath("configmap/c", "imp", ".data.a"));
        assertEquals("dg==", jsonpath("secret/s", "imp", ".data.k"));
        assertEquals("busybox:1.36", jsonpath("job/j", "imp", ".spec.template.spec.containers[0].image"));
        assertEquals("1", jsonpath("pdb/p", "imp", ".spec.minAvailable"));
        assertEquals("8080", jsonpath("service/svc", "imp", ".spec.ports[0].targetPort"));
        assertEquals("solo", jsonpath("pod/solo", "imp", ".metadata.labels.app"));

        ok("scale", "deployment", "web", "--replicas=2", "-n", "imp");
        ok("set", "image", "deployment/web", "nginx=nginx:1.26", "-n", "imp");
        ok("label", "configmap", "c", "tier=x", "-n", "imp");
        ok("annotate", "configmap", "c", "note=y", "-n", "imp");
        ok("rollout", "status", "deployment/web", "-n", "imp", "--timeout=120s");
        assertEquals("2", jsonpath("deployment/web", "imp", ".status.readyReplicas"));
        assertEquals("nginx:1.26", jsonpath("deployment/web", "imp", ".spec.template.spec.containers[0].image"));
        assertEquals("x", jsonpath("configmap/c", "imp", ".metadata.labels.tier"));
        ok("expose", "deployment", "web", "--port=80", "--target-port=8080", "--name=web-svc", "-n", "imp");
        assertEquals("web", jsonpath("service/web-svc", "imp", ".spec.selector.app"));
        ok("replace", "--force", "-f", writeConfigMap(), "-n", "imp");
        assertEquals("replaced", jsonpath("configmap/c", "imp", ".data.a"));

        ok("delete", "deployment", "web", "-n", "imp", "--wait=true", "--timeout=60s");
        ok("delete", "namespace", "imp", "--wait=true", "--timeout=120s");
    }

    private static String writeConfigMap() throws Exception {
        Path f = dir.resolve("c.yaml");
        java.nio.file.Files.writeString(f, """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: c}
                data: {a: replaced}
                """);
        return f.toString();
    }
}
