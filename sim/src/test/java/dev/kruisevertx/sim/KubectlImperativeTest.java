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
import java.util.Map;
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
        Result r = run(Map.of(), args);
        assertEquals(0, r.exit(), "kubectl " + String.join(" ", args) + ": " + r.out());
        return r.out();
    }

    record Result(int exit, String out) {
    }

    static ProcessBuilder kubectl(Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(), "--cache-dir",
                dir.resolve("cache").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        return pb;
    }

    static Result run(Map<String, String> env, String... args) throws Exception {
        Process p = kubectl(env, args).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "kubectl " + String.join(" ", args) + " did not finish");
        return new Result(p.exitValue(), out.trim());
    }

    /** A command the embedded cluster does not support fails with the server's (or kubectl's) clear reason. */
    static void unsupported(String expected, String... args) throws Exception {
        Result r = run(Map.of(), args);
        assertTrue(r.exit() != 0, "kubectl " + String.join(" ", args) + " is listed as unsupported but worked: " + r.out());
        assertTrue(r.out().contains(expected), "kubectl " + String.join(" ", args) + ": " + r.out());
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

    /** The commands of README's list beyond the imperative ones: apply, diff, edit, describe, get -w, rollout, nodes. */
    @Test
    void applyEditDescribeWatchRolloutAndNodes() throws Exception {
        ok("create", "namespace", "decl");
        Path manifest = dir.resolve("web.yaml");
        java.nio.file.Files.writeString(manifest, """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: decl}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers: [{name: nginx, image: "nginx:1.25"}]
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: c, namespace: decl}
                data: {a: b}
                """);
        assertTrue(ok("apply", "-f", manifest.toString()).contains("deployment.apps/web created"));
        assertTrue(ok("apply", "-f", manifest.toString()).contains("deployment.apps/web unchanged"));
        assertEquals("", ok("diff", "-f", manifest.toString()), "no difference from what was applied");
        ok("rollout", "status", "deployment/web", "-n", "decl", "--timeout=120s");

        // kubectl get -w: the watch (JSON Tables: kubectl asks for them first) shows a change made while it runs.
        Process watch = kubectl(Map.of(), "get", "configmaps", "-n", "decl", "-w", "--output-watch-events").start();
        java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (var r = new java.io.BufferedReader(new java.io.InputStreamReader(watch.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                    lines.add(l);
                }
            } catch (java.io.IOException e) {
                lines.add("read failed: " + e);
            }
        });
        reader.start();
        try {
            awaitLine(lines, "ADDED", " c ");
            // kubectl edit with a non-interactive editor: a script that rewrites data.a in the file kubectl hands it.
            Path editor = dir.resolve("editor.sh");
            java.nio.file.Files.writeString(editor, "#!/bin/sh\nsed -i 's/^  a: .*/  a: edited/' \"$1\"\n");
            assertTrue(editor.toFile().setExecutable(true));
            Result edited = run(Map.of("KUBE_EDITOR", editor.toString()), "edit", "configmap", "c", "-n", "decl");
            assertEquals(0, edited.exit(), edited.out());
            assertTrue(edited.out().contains("configmap/c edited"), edited.out());
            assertEquals("edited", jsonpath("configmap/c", "decl", ".data.a"));
            awaitLine(lines, "MODIFIED", " c ");
        } finally {
            watch.destroy();
            assertTrue(watch.waitFor(60, TimeUnit.SECONDS));
        }

        String describe = ok("describe", "deployment", "web", "-n", "decl");
        assertTrue(describe.matches("(?s).*Replicas:\\s+2 desired \\| 2 updated \\| 2 total \\| 2 available.*"), describe);
        String pods = ok("describe", "pods", "-l", "app=web", "-n", "decl");
        assertTrue(pods.matches("(?s).*Status:\\s+Running.*") && pods.contains("Node:"), pods);
        assertTrue(ok("describe", "configmap", "c", "-n", "decl").contains("edited"));
        String ns = ok("describe", "namespace", "decl");
        assertTrue(ns.matches("(?s).*Status:\\s+Active.*"), ns);
        String all = ok("get", "all", "-n", "decl");
        assertTrue(all.contains("deployment.apps/web") && all.contains("replicaset.apps/web-") && all.contains("pod/web-"), all);

        ok("set", "env", "deployment/web", "MODE=x", "-n", "decl");
        ok("rollout", "status", "deployment/web", "-n", "decl", "--timeout=120s");
        ok("rollout", "restart", "deployment/web", "-n", "decl");
        ok("rollout", "status", "deployment/web", "-n", "decl", "--timeout=120s");
        assertTrue(ok("rollout", "history", "deployment/web", "-n", "decl").contains("3 "), "three revisions");
        ok("rollout", "undo", "deployment/web", "-n", "decl", "--to-revision=1");
        ok("rollout", "status", "deployment/web", "-n", "decl", "--timeout=120s");
        assertEquals("", jsonpath("deployment/web", "decl", ".spec.template.spec.containers[0].env"), "revision 1 has no env");
        ok("rollout", "pause", "deployment/web", "-n", "decl");
        assertEquals("true", jsonpath("deployment/web", "decl", ".spec.paused"));
        ok("rollout", "resume", "deployment/web", "-n", "decl");
        ok("wait", "--for=condition=Available", "deployment/web", "-n", "decl", "--timeout=120s");

        ok("cordon", "sim-node-1");
        assertEquals("true", ok("get", "node", "sim-node-1", "-o", "jsonpath={.spec.unschedulable}"));
        ok("uncordon", "sim-node-1");
        ok("drain", "sim-node-1", "--ignore-daemonsets", "--timeout=120s");
        assertEquals("", ok("get", "pods", "-n", "decl", "--field-selector=spec.nodeName=sim-node-1", "-o", "name"),
                "drain evicted the node's pods");
        ok("uncordon", "sim-node-1");
        assertTrue(ok("delete", "-f", manifest.toString()).contains("deployment.apps \"web\" deleted"));
        ok("delete", "namespace", "decl", "--wait=true", "--timeout=120s");
    }

    /** README's "Not supported" kubectl commands fail with a reason a user can act on, never a garbled answer. */
    @Test
    void unsupportedCommandsFailClearly() throws Exception {
        ok("run", "lone", "--image=nginx:1.25", "-n", "default");
        unsupported("pods/log", "logs", "pod/lone", "-n", "default");
        unsupported("pods/exec", "exec", "lone", "-n", "default", "--", "true");
        unsupported("not found in OpenAPI schema", "explain", "pods");
        unsupported("selfsubjectaccessreviews", "auth", "can-i", "get", "pods");
        ok("create", "deployment", "auto", "--image=nginx:1.25", "-n", "default");
        unsupported("horizontalpodautoscalers", "autoscale", "deployment", "auto", "--max=2", "-n", "default");
        unsupported("cronjobs", "create", "cronjob", "cj", "--image=busybox:1.36", "--schedule=*/5 * * * *");
        unsupported("Metrics API not available", "top", "pods");
        Path cm = dir.resolve("ssa.yaml");
        java.nio.file.Files.writeString(cm, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ssa, namespace: default}\n");
        unsupported("server-side apply is not supported", "apply", "--server-side", "-f", cm.toString());
        ok("delete", "pod", "lone", "-n", "default", "--wait=false");
        ok("delete", "deployment", "auto", "-n", "default", "--wait=false");
    }

    private static void awaitLine(java.util.concurrent.BlockingQueue<String> lines, String... parts) throws Exception {
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            String l = lines.poll(1, TimeUnit.SECONDS);
            if (l == null) {
                continue;
            }
            seen.add(l);
            String padded = " " + l + " ";
            if (java.util.Arrays.stream(parts).allMatch(padded::contains)) {
                return;
            }
        }
        throw new AssertionError("kubectl get -w printed no line with " + List.of(parts) + "; saw " + seen);
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
