package dev.kruisevertx.demo;

import dev.kruisevertx.sim.RunDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs {@code kruise-manager demo --until-ready} exactly as a user would, in CI. */
class DemoTest {
    private record Run(int code, String out, String err) {
    }

    private static Run demo(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Class<?> main = Class.forName("dev.kruisevertx.manager.KruiseManagerMain");
        Method run = main.getDeclaredMethod("run", String[].class, PrintStream.class, PrintStream.class, Map.class,
                boolean.class);
        run.setAccessible(true);
        String[] full = new String[args.length + 1];
        full[0] = "demo";
        System.arraycopy(args, 0, full, 1, args.length);
        int code = (int) run.invoke(null, full, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), false);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The run directory the demo names on start-up (webhook certificates and CA key, CRI sockets). */
    private static Path runDirectory(Run r) {
        String line = r.out().lines().filter(l -> l.startsWith("demo: run directory ")).findFirst()
                .orElseThrow(() -> new AssertionError("no run directory line in: " + r.out()));
        String rest = line.substring("demo: run directory ".length());
        return Path.of(rest.substring(0, rest.indexOf(" (")));
    }

    @Test
    void untilReadyExitsZeroOnceTheSamplesConverge(@TempDir Path dir) throws Exception {
        Path kubeconfig = dir.resolve("kubeconfig");
        Run r = demo("--until-ready", "--timeout=240s", "--metrics-addr=127.0.0.1:0",
                "--health-probe-addr=127.0.0.1:0", "--debug-addr=127.0.0.1:0", "--kubeconfig-out=" + kubeconfig);
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("demo: applied pod default/sample-pod"), r.out());
        // The CloneSet sample rolls nginx 1.25 -> 1.26 in place in partition steps 80% -> 40% -> 0.
        assertTrue(r.out().contains("demo: step 7/19: applying samples/13-cloneset-rollout-0.yaml"), r.out());
        assertTrue(r.out().contains("cloneset default/sample-web: 5/5 ready, 1/1 updated (converged)"), r.out());
        assertTrue(r.out().contains("cloneset default/sample-web: 5/5 ready, 3/3 updated (converged)"), r.out());
        assertTrue(r.out().contains("cloneset default/sample-web: 5/5 ready, 5/5 updated (converged)"), r.out());
        assertTrue(r.out().contains("demo: all 14 samples converged"), r.out());
        // Before the rollout, an ImagePullJob pulls nginx 1.26 onto the nodes of the CloneSet's pods (podSelector)
        // through NodeImages and the simulated nodes' image puller (the demo turns ImagePullJobGate on).
        assertTrue(r.out().contains("demo: step 4/19: applying samples/10-image-pull-job-next-image.yaml"), r.out());
        assertTrue(r.out().contains("demo: applied imagepulljob default/sample-web-next-image"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("demo: imagepulljob default/sample-web-next-image: "
                + "([1-9])/\\1 nodes pulled, 0 pulling, 0 failed, job has completed \\(converged\\)")), r.out());
        // The SidecarSet sample injects a log-shipper into the CloneSet's 5 pods, then upgrades it in place.
        assertTrue(r.out().contains("demo: step 8/19: applying samples/14-sidecarset-log-shipper-upgrade.yaml"), r.out());
        assertTrue(r.out().contains("sidecarset sample-log-shipper: 5 matched, 5 updated, 5 ready (converged)"), r.out());
        // The Advanced StatefulSet sample.
        assertTrue(r.out().contains("demo: applied statefulset default/sample-asts"), r.out());
        // The ContainerRecreateRequest sample restarts the sample pod's container through the node agent of its node,
        // which speaks the CRI to the simulated runtime: the request completes, the restart count goes to 1.
        assertTrue(r.out().contains("demo: node agent (ContainerRecreateRequest) running on each simulated node"), r.out());
        assertTrue(r.out().contains("demo: step 10/19: applying samples/30-container-recreate-request.yaml"), r.out());
        assertTrue(r.out().contains("containerrecreaterequest default/sample-pod-restart: Completed, main=Succeeded (converged)"),
                r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("demo: pod default/sample-pod: Running on ")
                && l.endsWith(", ready, restarted main 1x (converged)")), r.out());
        // The Advanced DaemonSet sample: a pod on each of the 3 nodes, then nginx 1.27 in place on all but one.
        assertTrue(r.out().contains("daemonset default/sample-ads: 3/3 ready, 3/3 updated (converged)"), r.out());
        assertTrue(r.out().contains("demo: step 12/19: applying samples/41-advanced-daemonset-rollout-partition.yaml"), r.out());
        assertTrue(r.out().contains("daemonset default/sample-ads: 3/3 ready, 2/2 updated (converged)"), r.out());
        // The BroadcastJob sample runs on every node and completes; the AdvancedCronJob sample schedules its first Job.
        assertTrue(r.out().contains("broadcastjob default/sample-node-check: complete (converged)"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("demo: advancedcronjob default/sample-cron: Job runs, last at ")
                && l.endsWith("(converged)")), r.out());
        // The WorkloadSpread sample: the CloneSet's 4 pods go 2 to zone-a (the subset's limit) and 2 to zone-b.
        assertTrue(r.out().contains("demo: step 16/19: applying samples/61-cloneset-spread.yaml"), r.out());
        assertTrue(r.out().contains("cloneset default/sample-spread: 4/4 ready, 4/4 updated (converged)"), r.out());
        assertTrue(r.out().contains("workloadspread default/sample-spread: zone-a 2 pods (0 missing), zone-b 2 pods (converged)"),
                r.out());
        // The UnitedDeployment sample: 2 pods in each of zone-a, zone-b and zone-c, one CloneSet each.
        assertTrue(r.out().contains("demo: step 17/19: applying samples/62-united-deployment.yaml"), r.out());
        assertTrue(r.out().contains("uniteddeployment default/sample-zones: 6/6 ready, 6/6 updated (converged)"), r.out());
        // The container launch priority sample: its containers start one after another, then the pod is ready.
        assertTrue(r.out().contains("demo: step 18/19: applying samples/63-container-launch-priority.yaml"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("demo: pod default/sample-launch-order: ")
                && l.endsWith("(converged)")), r.out());
        // The PersistentPodState sample records the zone and node of the Advanced StatefulSet's 3 pods.
        assertTrue(r.out().contains("demo: step 19/19: applying samples/64-persistent-pod-state.yaml"), r.out());
        assertTrue(r.out().contains("persistentpodstate default/sample-asts: 3 pod states recorded (converged)"),
                r.out());
        String config = Files.readString(kubeconfig);
        assertTrue(config.contains("server: http://127.0.0.1:"), config);
        Path runDir = runDirectory(r);
        assertTrue(r.out().contains("CRI sockets under " + runDir.resolve("cri")), r.out());
        assertFalse(Files.exists(runDir), "the webhook certificates, CA key and CRI sockets are removed on exit");
    }

    @Test
    void aStuckSampleIsNamedAndTheExitCodeIsNonZero(@TempDir Path dir) throws Exception {
        Path samples = Files.createDirectory(dir.resolve("samples"));
        Files.writeString(samples.resolve("stuck.yaml"), """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: nowhere
                  namespace: default
                spec:
                  nodeSelector:
                    no-such-label: "true"
                  containers:
                    - name: main
                      image: nginx
                """);
        Run r = demo("--until-ready", "--timeout=3s", "--samples=" + samples, "--metrics-addr=0",
                "--health-probe-addr=0", "--debug-addr=0", "--kubeconfig-out=" + dir.resolve("kc"));
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("demo: STUCK pod default/nowhere"), r.out());
        assertTrue(r.err().contains("did not converge within 3s"), r.err());
        assertFalse(Files.exists(runDirectory(r)), "removed on a failed run's exit too");
    }

    @Test
    void aKilledRunsDirectoryIsRemovedByTheNextRunAndALiveRunsIsKept(@TempDir Path dir) throws Exception {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        Path killed = Files.createTempDirectory(tmp, DemoRunner.RUN_DIRECTORY_PREFIX);
        Files.writeString(killed.resolve(RunDirectory.OWNER_FILE), "pid=" + exited.pid() + "\n");
        Files.createDirectories(killed.resolve("webhook-certs"));
        Files.writeString(killed.resolve("webhook-certs/ca-key.pem"), "left behind");
        ProcessHandle self = ProcessHandle.current();
        Path live = Files.createTempDirectory(tmp, DemoRunner.RUN_DIRECTORY_PREFIX);
        Files.writeString(live.resolve(RunDirectory.OWNER_FILE), "pid=" + self.pid() + "\nstarted="
                + self.info().startInstant().orElseThrow() + "\n");
        try {
            Path samples = Files.createDirectory(dir.resolve("samples"));
            Files.writeString(samples.resolve("pod.yaml"), """
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: quick, namespace: default}
                    spec:
                      containers: [{name: main, image: nginx}]
                    """);
            Run r = demo("--until-ready", "--timeout=60s", "--samples=" + samples, "--metrics-addr=0",
                    "--health-probe-addr=0", "--debug-addr=0", "--kubeconfig-out=" + dir.resolve("kc"));
            assertEquals(0, r.code(), r.out() + r.err());
            assertFalse(Files.exists(killed), "a killed run's directory (with its CA key) is removed by the next run");
            assertTrue(Files.exists(live.resolve(RunDirectory.OWNER_FILE)), "a live run's directory is kept");
            assertFalse(Files.exists(runDirectory(r)));
        } finally {
            Files.deleteIfExists(live.resolve(RunDirectory.OWNER_FILE));
            Files.deleteIfExists(live);
        }
    }

    @Test
    void badFlagsExitTwo() throws Exception {
        Run r = demo("--timeout=soon");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--timeout: invalid duration \"soon\""), r.err());
    }
}
