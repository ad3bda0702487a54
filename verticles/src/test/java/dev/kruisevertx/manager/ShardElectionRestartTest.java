package dev.kruisevertx.manager;

import dev.kruisevertx.controller.Shards;
import dev.kruisevertx.kube.KubeClients;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shard election across replica starts. A replica killed without giving its shards back, restarted with the same
 * {@code --leader-election-identity}, takes its shard leases back on its first round instead of after they expire;
 * another identity still has to wait. Replicas started together split the shards without one taking them all first.
 */
@EnableKubernetesMockClient(crud = true)
class ShardElectionRestartTest {
    /** Far longer than the test waits: a take-back that needed the lease to expire would fail the test. */
    private static final Duration LEASE = Duration.ofSeconds(60);

    KubernetesMockServer server;
    KubernetesClient client;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    private record Replica(ShardElection election, Shards shards, SimpleMeterRegistry registry) {
    }

    private Replica replica(String identity) {
        KubernetesClient own = KubeClients.forTest(client.getConfiguration());
        Shards shards = new Shards(2, Duration.ofSeconds(40).toNanos(), System::nanoTime);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ShardElection election = new ShardElection(own, new LeaderElection.Settings("kruise-system", "kruise-manager",
                identity, LEASE, Duration.ofSeconds(40), Duration.ofMillis(200)), shards, new ShardElection.Listener() {
                    @Override
                    public void gained(Set<Integer> s) {
                    }

                    @Override
                    public void lost(Set<Integer> s) {
                    }
                }, registry);
        toClose.add(own);
        toClose.add(0, election);
        election.start();
        return new Replica(election, shards, registry);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    @Test
    void aRestartedReplicaWithTheSameIdentityTakesItsShardsBackWithoutWaitingForTheLease() throws Exception {
        Replica first = replica("kruise-manager-0");
        TestManagers.await("the lone replica holds both shards", Duration.ofSeconds(20),
                () -> first.shards().held().size() == 2, () -> first.shards().held());
        first.election().halt();
        assertEquals("kruise-manager-0", client.leases().inNamespace("kruise-system")
                .withName(ShardElection.shardLeaseName("kruise-manager", 0)).get().getSpec().getHolderIdentity(),
                "a killed replica leaves its leases held");

        Replica stranger = replica("kruise-manager-1");
        Thread.sleep(1500);
        assertTrue(stranger.shards().held().isEmpty(),
                "another identity waits for the leases to expire: " + stranger.shards().held());
        stranger.election().close(); // gone for good: its member lease goes, so the fair share is 2 again

        Replica restarted = replica("kruise-manager-0");
        TestManagers.await("the restarted replica holds both shards again", Duration.ofSeconds(20),
                () -> restarted.shards().held().size() == 2, () -> restarted.shards().held());
        assertTrue(restarted.shards().fresh(0) && restarted.shards().fresh(1), "renewed, so the write fence is up");
    }

    @Test
    void replicasStartedTogetherSplitTheShardsWithoutTakingThemAllFirst() throws Exception {
        Replica a = replica("kruise-manager-a");
        Replica b = replica("kruise-manager-b");
        TestManagers.await("one shard each", Duration.ofSeconds(20),
                () -> a.shards().held().size() == 1 && b.shards().held().size() == 1,
                () -> a.shards().held() + " " + b.shards().held());
        for (Replica r : List.of(a, b)) {
            assertEquals(0.0, r.registry().get("kruise_manager_shard_handovers_total").tag("direction", "lost")
                    .counter().count(), "no shard taken and given back: the first round only announces the replica");
        }
    }
}
