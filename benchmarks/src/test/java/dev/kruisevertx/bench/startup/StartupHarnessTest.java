package dev.kruisevertx.bench.startup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.podreadiness.PodReadinessController;
import dev.kruisevertx.podreadiness.PodReadinessDecision;
import dev.kruisevertx.sim.api.ApiServer;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StartupHarnessTest {
    @TempDir
    Path tmp;

    @Test
    void theManagersWebhookCertificatesLiveInARunDirectoryRemovedOnClose() throws Exception {
        // A directory left by an earlier, killed run (no owner file, an hour old) is removed by the next start.
        Path leftover = Files.createDirectory(tmp.resolve(StartupHarness.RUN_DIRECTORY_PREFIX + "12345"));
        Files.writeString(leftover.resolve("tls.key"), "old");
        Files.setLastModifiedTime(leftover, FileTime.from(Instant.now().minus(Duration.ofHours(1))));

        Path runDir;
        try (StartupHarness harness = StartupHarness.start(tmp)) {
            assertFalse(Files.exists(leftover), "a dead run's directory is removed");
            runDir = harness.runDirectory();
            assertEquals(tmp, runDir.getParent());
            assertTrue(runDir.getFileName().toString().startsWith(StartupHarness.RUN_DIRECTORY_PREFIX), runDir.toString());

            harness.run("pods", "gated", 2, 1, (h, name, pods) -> h.createReadyPod(new PodBuilder()
                            .withNewMetadata().withName(name).withNamespace("default").endMetadata()
                            .withNewSpec().addNewReadinessGate().withConditionType(PodReadinessDecision.KRUISE_POD_READY)
                            .endReadinessGate().addNewContainer().withName("main").withImage("nginx:1").endContainer()
                            .endSpec().build()).await(60, TimeUnit.SECONDS),
                    new PodReadinessController(), StartupHarnessTest::podsMarkedReady);
            assertEquals(2, harness.cluster().onApiContext(() -> podsMarkedReady(harness.api())).await(60, TimeUnit.SECONDS),
                    "the manager ran: it marked both gated pods");
            Path certs = runDir.resolve("webhook-certs");
            try (Stream<Path> files = Files.list(certs)) {
                assertTrue(files.findAny().isPresent(), "the manager wrote its webhook certificates to " + certs);
            }
        }
        assertFalse(Files.exists(runDir), "the run directory is removed on close");
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(0, left.count(), "nothing is left in the temp directory");
        }
    }

    /** On the API context: pods carrying the KruisePodReady condition. */
    private static int podsMarkedReady(ApiServer api) {
        int n = 0;
        for (ObjectNode pod : api.store().all(api.type("", "v1", "pods"))) {
            for (JsonNode c : pod.path("status").path("conditions")) {
                if (PodReadinessDecision.KRUISE_POD_READY.equals(c.path("type").asText())) {
                    n++;
                }
            }
        }
        return n;
    }
}
