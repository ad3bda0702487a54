package dev.kruisevertx.webhook.bench;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load command runs end to end at a low rate: every pod is placed and recorded (it throws otherwise), and its
 * in-memory store keeps the API server's resourceVersion rule and the controller's trimming of records.
 */
class WorkloadSpreadAdmissionLoadTest {
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aShortRunRecordsEveryPodAndPrintsPercentiles() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            WorkloadSpreadAdmissionLoad.main(new String[]{"5", "40", "1", "0"});
        } finally {
            System.setOut(original);
        }
        String report = out.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("5 WorkloadSpreads in the pod's namespace; 40 status writes"), report);
        assertTrue(report.contains("pod mutation with WorkloadSpread over HTTPS on loopback: target 40 req/s for 1 s, "
                + "40 requests, 0 failed"), report);
        assertTrue(report.contains("p99 "), report);
    }

    @Test
    void theStoreRefusesAStaleWriteAndKeepsTheNewestRecords() {
        WorkloadSpreadAdmissionLoad.InMemorySpreads store = new WorkloadSpreadAdmissionLoad.InMemorySpreads();
        store.put(WorkloadSpreadAdmissionLoad.spread(0));
        WorkloadSpread ws = store.latest("ns-7", "ws0").orElseThrow();
        var entry = new dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetStatus("zone-a", 0, 1);
        java.util.Map<String, String> creating = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 150; i++) {
            creating.put("p" + i, "2026-01-01T00:00:00Z");
        }
        entry.setCreatingPods(creating);
        ws.setStatus(new dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadStatus());
        ws.getStatus().setVersionedSubsetStatuses(new java.util.LinkedHashMap<>(java.util.Map.of("versionIgnored",
                new java.util.ArrayList<>(java.util.List.of(entry)))));
        WorkloadSpread written = store.updateStatus(ws);
        assertEquals("2", written.getMetadata().getResourceVersion());
        var kept = written.getStatus().getVersionedSubsetStatuses().get("versionIgnored").get(0).creatingPods();
        assertEquals(WorkloadSpreadAdmissionLoad.KEPT_RECORDS, kept.size());
        assertTrue(kept.containsKey("p149") && !kept.containsKey("p49"), kept.keySet().toString());
        KubernetesClientException stale = assertThrows(KubernetesClientException.class, () -> store.updateStatus(ws));
        assertEquals(409, stale.getCode());
    }
}
