package dev.kruisevertx.agent.crr;

import dev.kruisevertx.agent.cri.CriEndpoint;
import dev.kruisevertx.agent.cri.GrpcCriClient;
import dev.kruisevertx.agent.podprobe.ProbeResult;
import dev.kruisevertx.agent.podprobe.ProbeRunner;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PodProbeMarker prober's exec probes against the real containerd of {@code cri-setup.sh} (skipped without it):
 * the container is found by the kubelet's labels and the command runs through ExecSync; its exit code and output
 * decide the result. Lives here to reuse {@link TestKubelet}.
 */
class ProbeExecOnRealRuntimeTest {
    static Vertx vertx;
    static GrpcCriClient cri;
    static ClusterFixture cluster;

    @BeforeAll
    static void connect() throws Exception {
        CriEndpoint endpoint = CrrOnRealRuntimeTest.endpointOrSkip(false);
        if (endpoint == null) {
            return;
        }
        vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        cri = new GrpcCriClient(vertx, endpoint, Duration.ofSeconds(60), null);
        TestKubelet.await(cri.pullImage(CrrOnRealRuntimeTest.image(), null, null, Duration.ofMinutes(2)));
        cluster = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setAdmission(false)
                .setCrdDirectory(ClusterFixture.findCrdDirectory()));
    }

    @AfterAll
    static void close() {
        if (vertx != null) {
            TestKubelet.await(cri.close());
            TestKubelet.await(vertx.close());
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    static Probe exec(String script) {
        return new ProbeBuilder().withNewExec().withCommand("/bin/sh", "-c", script).endExec().withTimeoutSeconds(5)
                .build();
    }

    @Test
    void execProbeFollowsTheCommandsExitCodeAndOutput() throws Exception {
        CrrOnRealRuntimeTest.endpointOrSkip(true);
        Path hostDir = Files.createTempDirectory("kruise-probe-exec");
        Path logs = Files.createTempDirectory("kruise-probe-logs");
        TestKubelet kubelet = new TestKubelet(cri, cluster.client(), CrrOnRealRuntimeTest.image(), hostDir, logs,
                "default", "probe-" + UUID.randomUUID().toString().substring(0, 8));
        kubelet.container("main", "while true; do sleep 1; done");
        try {
            kubelet.run(new PodBuilder().withNewSpec().addNewContainer().withName("main")
                    .withImage(CrrOnRealRuntimeTest.image()).endContainer().endSpec().build(), "node-a");
            String uid = kubelet.runtimeStatus(kubelet.containerId("main")).getLabelsMap().get("io.kubernetes.pod.uid");
            try (ProbeRunner runner = new ProbeRunner(vertx, cri)) {
                String check = "test -f " + TestKubelet.HOOK_DIR + "/healthy && echo healthy";
                ProbeResult failing = TestKubelet.await(runner.run(exec(check), uid, "main", "")).orElseThrow();
                assertFalse(failing.success());
                Files.writeString(hostDir.resolve("healthy"), "");
                ProbeResult passing = TestKubelet.await(runner.run(exec(check), uid, "main", "")).orElseThrow();
                assertTrue(passing.success());
                assertEquals("healthy", passing.message());
                Optional<ProbeResult> otherContainer = TestKubelet.await(runner.run(exec(check), uid, "sidecar", ""));
                assertTrue(otherContainer.isEmpty(), "no running container: no result");
            }
        } finally {
            kubelet.close();
        }
    }
}
