package dev.kruisevertx.manager;

import dev.kruisevertx.kube.KubeClients;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import dev.kruisevertx.testing.CapturedLog;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import org.apache.logging.log4j.Level;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@EnableKubernetesMockClient(crud = true)
class LeaderElectionTest {
    KubernetesMockServer server;
    KubernetesClient client;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    private static final class Recorder implements LeaderElection.Listener {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void startedLeading() {
            events.add("start");
        }

        @Override
        public void stoppedLeading() {
            events.add("stop");
        }
    }

    private LeaderElection candidate(String identity, Recorder recorder, SimpleMeterRegistry registry) {
        KubernetesClient own = KubeClients.forTest(client.getConfiguration());
        LeaderElection election = new LeaderElection(own, new LeaderElection.Settings("kruise-system", "kruise-manager",
                identity, Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(200)), recorder, registry);
        toClose.add(own);
        toClose.add(0, election);
        return election;
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    @Test
    void onlyOneLeadsAndAStandbyTakesOverWhenTheLeaderLeaves() throws Exception {
        SimpleMeterRegistry registryA = new SimpleMeterRegistry();
        SimpleMeterRegistry registryB = new SimpleMeterRegistry();
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        LeaderElection first = candidate("replica-a", a, registryA);
        first.start();
        TestManagers.await("replica-a leads", Duration.ofSeconds(20), first::isLeader, () -> a.events);
        assertEquals(1.0, registryA.get("kruise_manager_is_leader").gauge().value());

        LeaderElection second = candidate("replica-b", b, registryB);
        second.start();
        Thread.sleep(1500);
        assertFalse(second.isLeader(), "two leaders at once");
        assertTrue(b.events.isEmpty(), b.events.toString());
        assertEquals(0.0, registryB.get("kruise_manager_is_leader").gauge().value());
        Lease lease = client.leases().inNamespace("kruise-system").withName("kruise-manager").get();
        assertEquals("replica-a", lease.getSpec().getHolderIdentity());

        first.close();
        assertFalse(first.isLeader());
        assertEquals(List.of("start", "stop"), a.events);
        TestManagers.await("replica-b takes over", Duration.ofSeconds(20), second::isLeader, () -> b.events);
        // isLeader turns true before the start callback has run on its context: wait for the callback, then pin it.
        TestManagers.await("replica-b started", Duration.ofSeconds(20), () -> !b.events.isEmpty(), () -> b.events);
        assertEquals(List.of("start"), b.events);
        assertEquals("replica-b",
                client.leases().inNamespace("kruise-system").withName("kruise-manager").get().getSpec().getHolderIdentity());
    }

    @Test
    void closingALeaderReleasesTheLeaseAfterDroppingTheFence() throws Exception {
        Recorder a = new Recorder();
        LeaderElection first = candidate("replica-a", a, new SimpleMeterRegistry());
        first.start();
        TestManagers.await("replica-a leads", Duration.ofSeconds(20), first::isLeader, () -> a.events);
        try (CapturedLog log = CapturedLog.of(LeaderElection.class)) {
            first.close();
            assertFalse(first.isLeader());
            Lease lease = client.leases().inNamespace("kruise-system").withName("kruise-manager").get();
            // fabric8's release: the lease shortened to 1 s from now (its merge patch cannot clear the holder).
            assertEquals(1, lease.getSpec().getLeaseDurationSeconds(), "released: " + lease.getSpec());
            assertTrue(log.lines().stream().anyMatch(l -> l.message().startsWith("released lease kruise-system/kruise-manager")),
                    log.lines().toString());
        }
    }

    @Test
    void aLeaseThatCannotBeReleasedIsOneWarningLineNotAStackTrace() throws Exception {
        Recorder a = new Recorder();
        LeaderElection first = candidate("replica-a", a, new SimpleMeterRegistry());
        first.start();
        TestManagers.await("replica-a leads", Duration.ofSeconds(20), first::isLeader, () -> a.events);
        // The API server fails every read of the lease from now on, as a partitioned replica's would.
        server.expect().get().withPath("/apis/coordination.k8s.io/v1/namespaces/kruise-system/leases/kruise-manager")
                .andReturn(503, "unavailable").always();
        try (CapturedLog fabric8 = CapturedLog.of(LeaderElector.class); CapturedLog ours = CapturedLog.of(LeaderElection.class)) {
            first.close();
            assertFalse(first.isLeader());
            assertTrue(fabric8.lines().stream().noneMatch(l -> l.thrown() != null || l.level().isMoreSpecificThan(Level.ERROR)),
                    "fabric8's elector logged " + fabric8.lines());
            List<CapturedLog.Line> warnings = ours.lines().stream()
                    .filter(l -> l.level() == Level.WARN && l.message().contains("release")).toList();
            assertEquals(1, warnings.size(), ours.lines().toString());
            assertTrue(warnings.get(0).message().startsWith("could not release lease kruise-system/kruise-manager (HTTP 503"),
                    warnings.get(0).message());
            assertTrue(ours.lines().stream().allMatch(l -> l.thrown() == null), "no stack trace: " + ours.lines());
        }
    }

    @Test
    void settingsRejectInconsistentDurations() {
        assertThrows(IllegalArgumentException.class, () -> new LeaderElection.Settings("ns", "id", "me",
                Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(2)));
        assertThrows(IllegalArgumentException.class, () -> new LeaderElection.Settings("ns", "id", "me",
                Duration.ofSeconds(15), Duration.ofSeconds(2), Duration.ofSeconds(2)));
    }
}
