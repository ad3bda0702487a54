package dev.kruisevertx.sim.testing;

import dev.kruisevertx.sim.EmbeddedCluster;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.nodes.SimNodesOptions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TestingHelpersTest {
    @RegisterExtension
    static final EmbeddedClusterExtension CLUSTER = new EmbeddedClusterExtension(new EmbeddedClusterOptions().setNodes(1)
            .setNodeOptions(new SimNodesOptions().setHeartbeatInterval(Duration.ofMillis(300))));

    @Test
    void extensionInjectsClusterAndClient(EmbeddedCluster cluster, KubernetesClient client) {
        assertTrue(cluster.url().startsWith("http://127.0.0.1:"));
        assertEquals(1, client.nodes().list().getItems().size());
    }

    @Test
    void applyMultiDocumentYamlTwice(KubernetesClient client) {
        String yaml = """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: applied, namespace: default}
                data: {a: "1"}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: applied-pod, namespace: default}
                spec:
                  containers: [{name: c, image: "nginx:1"}]
                """;
        List<HasMetadata> first = ManifestApplier.apply(client, yaml);
        assertEquals(2, first.size());
        List<HasMetadata> second = ManifestApplier.apply(client, yaml.replace("a: \"1\"", "a: \"2\""));
        assertEquals("2", client.configMaps().inNamespace("default").withName("applied").get().getData().get("a"));
        assertEquals(first.get(0).getMetadata().getUid(), second.get(0).getMetadata().getUid());
        Pod running = Await.waitFor("applied pod running", Duration.ofSeconds(30),
                () -> client.pods().inNamespace("default").withName("applied-pod").get(),
                p -> p != null && "Running".equals(p.getStatus().getPhase()));
        assertEquals("sim-node-0", running.getSpec().getNodeName());
    }

    @Test
    void waitForFailureNamesTheConditionAndTheLastState() {
        AtomicInteger n = new AtomicInteger();
        AssertionError e = assertThrows(AssertionError.class,
                () -> Await.waitFor("the counter to reach -1", Duration.ofMillis(300), n::incrementAndGet, v -> v < 0));
        assertTrue(e.getMessage().contains("the counter to reach -1"), e.getMessage());
        assertTrue(e.getMessage().matches("(?s).*last observed: \\d+.*"), e.getMessage());
        AssertionError thrown = assertThrows(AssertionError.class, () -> Await.waitFor("never", Duration.ofMillis(100), () -> {
            throw new IllegalStateException("boom");
        }));
        assertTrue(thrown.getMessage().contains("boom"), thrown.getMessage());
    }

    @Test
    void nodeLeaseIsRenewed(KubernetesClient client) {
        Lease lease = client.leases().inNamespace("kube-node-lease").withName("sim-node-0").get();
        ZonedDateTime first = lease.getSpec().getRenewTime();
        Await.waitFor("lease renewed", Duration.ofSeconds(20),
                () -> client.leases().inNamespace("kube-node-lease").withName("sim-node-0").get().getSpec().getRenewTime(),
                t -> t.isAfter(first));
    }
}
