package dev.kruisevertx.workloadspread;

import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadPodRecorder;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetStatus;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pod webhook's status records against the embedded API server (which, like a real one, refuses a status
 * write over a stale resourceVersion; fabric8's mock server does not): a stale cached WorkloadSpread makes
 * the first write conflict and the retry re-reads the server; conflicts past client-go's DefaultBackoff (4 attempts,
 * 10/50/250 ms) fail the admission; a WorkloadSpread gone between the attempts leaves the pod unplaced.
 */
class WorkloadSpreadPodRecorderTest {
    static ClusterFixture cluster;
    static KubernetesClient client;

    @BeforeAll
    static void startCluster() {
        cluster = ClusterFixture.start();
        client = cluster.client();
        client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName("ns").endMetadata().build()).create();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    final List<Duration> sleeps = new ArrayList<>();
    WorkloadSpread stale;

    @BeforeEach
    void createWorkloadSpread() {
        client.resources(WorkloadSpread.class).inNamespace("ns").withName("ws").delete();
        WorkloadSpread ws = ApiJson.serialization().unmarshal("""
                {"apiVersion":"apps.kruise.io/v1alpha1","kind":"WorkloadSpread",
                 "metadata":{"name":"ws","namespace":"ns","uid":"ws-uid"},
                 "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"web"},
                   "subsets":[{"name":"a","maxReplicas":2},{"name":"b","maxReplicas":2}]}}""", WorkloadSpread.class);
        stale = client.resources(WorkloadSpread.class).inNamespace("ns").resource(ws).create();
    }

    /** The mock server as the API, and {@code cached} standing in for the watch cache. */
    WorkloadSpreadStore store(java.util.function.Supplier<Optional<WorkloadSpread>> cached, Runnable beforeWrite) {
        return new WorkloadSpreadStore() {
            @Override
            public Optional<WorkloadSpread> cached(String namespace, String name) {
                return cached.get();
            }

            @Override
            public Optional<WorkloadSpread> latest(String namespace, String name) {
                return Optional.ofNullable(client.resources(WorkloadSpread.class).inNamespace(namespace)
                        .withName(name).get());
            }

            @Override
            public WorkloadSpread updateStatus(WorkloadSpread ws) {
                beforeWrite.run();
                return client.resources(WorkloadSpread.class).inNamespace("ns").resource(ws).updateStatus();
            }

            @Override
            public Optional<OwnerReference> controllerOf(String namespace, OwnerReference owner) {
                return Optional.empty();
            }

            @Override
            public int workloadReplicas(WorkloadSpread ws) {
                return 0;
            }
        };
    }

    WorkloadSpreadPodRecorder recorder(WorkloadSpreadStore store) {
        return recorder(store, sleeps::add);
    }

    WorkloadSpreadPodRecorder recorder(WorkloadSpreadStore store, WorkloadSpreadPodRecorder.Sleeper sleeper) {
        AtomicInteger ids = new AtomicInteger();
        return new WorkloadSpreadPodRecorder(store, PodVersions.defaults(), () -> CustomWorkloadWhiteList.EMPTY,
                Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), () -> "id-" + ids.incrementAndGet(),
                sleeper);
    }

    static Pod pod(String name) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata().build();
    }

    void bump() {
        client.resources(WorkloadSpread.class).inNamespace("ns").withName("ws").edit(ws -> {
            Map<String, String> a = new HashMap<>(ws.getMetadata().getAnnotations() == null ? Map.of()
                    : ws.getMetadata().getAnnotations());
            a.put("bump", Integer.toString(a.size() + sleeps.size()));
            ws.getMetadata().setAnnotations(a);
            return ws;
        });
    }

    static WorkloadSpreadSubsetStatus subset(WorkloadSpread ws, String name) {
        return ws.getStatus().getVersionedSubsetStatuses().get("versionIgnored").stream()
                .filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aStaleCachedObjectConflictsOnceThenTheFreshOneIsWritten() {
        WorkloadSpreadPodRecorder recorder = recorder(store(() -> Optional.of(stale), () -> { }));
        // Another writer moved the object on: the cached copy's resourceVersion is stale.
        bump();
        var first = recorder.recordCreation(stale, pod("p1")).orElseThrow();
        assertEquals("a", first.subset());
        assertEquals(1, sleeps.size(), "one conflict, one backoff");
        assertTrue(sleeps.get(0).compareTo(Duration.ofMillis(10)) >= 0
                && sleeps.get(0).compareTo(Duration.ofMillis(11)) <= 0, sleeps.toString());
        // The next pod starts from what this replica wrote (newer than the stale cache) without a conflict.
        var second = recorder.recordCreation(stale, pod("p2")).orElseThrow();
        var third = recorder.recordCreation(stale, pod("p3")).orElseThrow();
        assertEquals(List.of("a", "b"), List.of(second.subset(), third.subset()));
        assertEquals(1, sleeps.size());
        WorkloadSpread stored = client.resources(WorkloadSpread.class).inNamespace("ns").withName("ws").get();
        assertEquals(Map.of("p1", "2026-01-01T00:00:00Z", "p2", "2026-01-01T00:00:00Z"),
                subset(stored, "a").creatingPods());
        assertEquals(0, subset(stored, "a").getMissingReplicas());
        assertEquals(1, subset(stored, "b").getMissingReplicas());
    }

    @Test
    void conflictsPastTheFourAttemptsFailTheAdmission() {
        WorkloadSpreadPodRecorder recorder = recorder(store(() -> Optional.empty(), this::bump));
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> recorder.recordCreation(stale, pod("p1")));
        assertEquals(409, e.getCode());
        assertEquals(3, sleeps.size(), "client-go's DefaultBackoff: 4 attempts, 3 waits");
        long[] base = {10, 50, 250};
        for (int i = 0; i < 3; i++) {
            long ms = sleeps.get(i).toMillis();
            assertTrue(ms >= base[i] && ms <= base[i] * 11 / 10, "wait " + i + ": " + sleeps);
        }
    }

    @Test
    void aWorkloadSpreadDeletedBetweenAttemptsLeavesThePodUnplaced() {
        // The first write conflicts; while the recorder backs off, the WorkloadSpread is deleted.
        WorkloadSpreadPodRecorder recorder = recorder(store(() -> Optional.of(stale), () -> { }), d -> {
            sleeps.add(d);
            client.resources(WorkloadSpread.class).inNamespace("ns").withName("ws").delete();
        });
        bump();
        assertEquals(Optional.empty(), recorder.recordCreation(stale, pod("p1")));
        assertEquals(1, sleeps.size());
    }

    @Test
    void aWorkloadSpreadDeletedJustBeforeTheWriteFailsTheAdmissionAsInOpenKruise() {
        WorkloadSpreadPodRecorder recorder = recorder(store(() -> Optional.of(stale),
                () -> client.resources(WorkloadSpread.class).inNamespace("ns").withName("ws").delete()));
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> recorder.recordCreation(stale, pod("p1")));
        assertEquals(404, e.getCode());
        assertTrue(sleeps.isEmpty(), "only conflicts are retried");
    }
}
