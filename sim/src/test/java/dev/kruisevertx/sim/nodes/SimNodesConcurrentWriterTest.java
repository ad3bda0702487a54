package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On a real control plane other clients write the simulated nodes too (kube-controller-manager's node lifecycle,
 * IPAM and route controllers), their leases, and their pods' status (controllers setting readiness-gate
 * conditions), so the simulator's writes meet conflicts; none of them may stop it. The other writer here is made to
 * write each object between the simulator's read and its write, on every other write the simulator makes to it:
 * deterministic, where a racing thread would only sometimes hit the window.
 */
class SimNodesConcurrentWriterTest {
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static final List<String> NODES = List.of("busy-0", "busy-1", "busy-2");
    static final String WRITER_CONDITION = "example.com/probed";
    static final String ANNOTATION = "example.com/written";

    @Test
    void startsAndKeepsNodesLeasesAndPodsCurrentWhileAnotherClientWritesThem() {
        try (ClusterFixture fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0));
             KubernetesClient writerClient = fixture.cluster().newClient()) {
            InterleavingWriter writer = new InterleavingWriter(writerClient);
            KubernetesClient client = fixture.client();
            SimNodesOptions options = new SimNodesOptions().setNodes(NODES.size()).setNamePrefix("busy-")
                    .setHeartbeatInterval(Duration.ofMillis(300));
            try (KubernetesClient simClient = clientWith(fixture, writer);
                 SimNodes sim = assertDoesNotThrow(() -> SimNodes.start(simClient, options),
                         "start-up survives another client writing the new nodes")) {
                assertTrue(writer.nodeWrites.get() >= NODES.size(), "the writer wrote each node as it was registered");
                Instant started = Instant.now();
                for (String name : NODES) {
                    Await.waitFor("lease of " + name + " renewed while the writer writes it", TIMEOUT,
                            () -> client.leases().inNamespace(SimNodes.NODE_LEASE_NAMESPACE).withName(name).get(),
                            l -> renewTime(l).isAfter(started) && l.getMetadata().getAnnotations() != null
                                    && l.getMetadata().getAnnotations().containsKey(ANNOTATION));
                }

                // The node lifecycle controller marks a node whose heartbeats it missed Unknown; the kubelet's next
                // status update reports it Ready again, as a real kubelet does.
                client.nodes().withName("busy-1").subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                        "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"Unknown\",\"reason\":\"NodeStatusUnknown\","
                                + "\"lastTransitionTime\":\"" + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "\"}]}}");
                Await.waitFor("busy-1 Ready again", TIMEOUT, () -> client.nodes().withName("busy-1").get(),
                        n -> "True".equals(condition(n, "Ready").getStatus()));

                client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("contended")
                        .endMetadata().withNewSpec().addNewContainer().withName("app").withImage("nginx:1.25")
                        .endContainer().endSpec().build()).create();
                Pod ready = Await.waitFor("pod Ready while the writer writes its status", TIMEOUT,
                        () -> client.pods().inNamespace("default").withName("contended").get(),
                        p -> "True".equals(podCondition(p, "Ready")));
                assertEquals("Running", ready.getStatus().getPhase());
                assertEquals("True", podCondition(ready, WRITER_CONDITION), "the kubelet keeps the other writer's condition");
                assertTrue(writer.podWrites.get() > 0, "the writer wrote the pod's status between the kubelet's reads and writes");
                assertTrue(writer.leaseWrites.get() > 0, "the writer wrote the leases between the simulator's renewals");

                for (String name : NODES) {
                    Node n = client.nodes().withName(name).get();
                    assertEquals("True", condition(n, "Ready").getStatus(), name);
                    // The simulator's status writes keep what others wrote (a real kubelet patches its own fields).
                    assertNotNull(condition(n, "NetworkUnavailable"), name + " keeps the other writer's condition");
                    assertNotNull(n.getMetadata().getAnnotations().get(ANNOTATION), name);
                }
                assertNull(writer.failure.get(), () -> "writer failed: " + writer.failure.get());
            }
        }
    }

    @Test
    void aRestartedSimulatorTakesBackTheNodesAndLeasesItRegisteredBefore() {
        try (ClusterFixture fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0))) {
            KubernetesClient client = fixture.client();
            SimNodesOptions options = new SimNodesOptions().setNodes(2).setNamePrefix("again-")
                    .setHeartbeatInterval(Duration.ofMillis(300));
            try (KubernetesClient first = fixture.cluster().newClient(); SimNodes sim = SimNodes.start(first, options)) {
                assertEquals(2, sim.nodeNames().size());
            }
            String readySince = condition(client.nodes().withName("again-0").get(), "Ready").getLastTransitionTime();
            Instant restarted = Instant.now();
            try (KubernetesClient second = fixture.cluster().newClient();
                 SimNodes sim = assertDoesNotThrow(() -> SimNodes.start(second, options), "nodes and leases exist already")) {
                Lease lease = Await.waitFor("again-0's lease renewed by the new run", TIMEOUT,
                        () -> client.leases().inNamespace(SimNodes.NODE_LEASE_NAMESPACE).withName("again-0").get(),
                        l -> renewTime(l).isAfter(restarted));
                assertEquals("again-0", lease.getSpec().getHolderIdentity());
                Node node = client.nodes().withName("again-0").get();
                assertEquals("True", condition(node, "Ready").getStatus());
                assertEquals(readySince, condition(node, "Ready").getLastTransitionTime(), "Ready did not change, nor its transition time");
                assertEquals(2, client.nodes().list().getItems().size());
            }
        }
    }

    /** A client for the simulator that lets {@code writer} act before each of its writes. */
    static KubernetesClient clientWith(ClusterFixture fixture, Interceptor writer) {
        return new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(fixture.cluster().clientConfig()).withRequestRetryBackoffLimit(0).build())
                .withHttpClientFactory(new JdkHttpClientFactory())
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("interleaving-writer", writer))
                .build();
    }

    static Instant renewTime(Lease lease) {
        ZonedDateTime t = lease == null || lease.getSpec() == null ? null : lease.getSpec().getRenewTime();
        return t == null ? Instant.EPOCH : t.toInstant();
    }

    static NodeCondition condition(Node n, String type) {
        return n.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    static String podCondition(Pod p, String type) {
        if (p == null || p.getStatus() == null || p.getStatus().getConditions() == null) {
            return null;
        }
        return p.getStatus().getConditions().stream().filter(c -> type.equals(c.getType()))
                .map(PodCondition::getStatus).findFirst().orElse(null);
    }

    /**
     * Before every other write the simulator sends to a node, a node lease or a pod's status, updates that object
     * itself with a read-modify-write PUT, as a controller would: an annotation and a NetworkUnavailable condition on
     * nodes, an annotation on leases, a condition of its own on pods.
     */
    static final class InterleavingWriter implements Interceptor {
        private static final Pattern NODE = Pattern.compile("/api/v1/nodes/([^/]+)(/status)?");
        private static final Pattern LEASE = Pattern.compile("/apis/coordination\\.k8s\\.io/v1/namespaces/"
                + SimNodes.NODE_LEASE_NAMESPACE + "/leases/([^/]+)");
        private static final Pattern POD_STATUS = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/status");
        final AtomicInteger nodeWrites = new AtomicInteger();
        final AtomicInteger leaseWrites = new AtomicInteger();
        final AtomicInteger podWrites = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Map<String, Integer> seen = new ConcurrentHashMap<>();
        private final KubernetesClient client;

        InterleavingWriter(KubernetesClient client) {
            this.client = client;
        }

        @Override
        public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            String method = request.method();
            if (!method.equals("PUT") && !method.equals("PATCH")) {
                return;
            }
            String path = request.uri().getPath();
            if (seen.merge(path, 1, Integer::sum) % 2 == 0) {
                return;
            }
            try {
                interfere(path);
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
            }
        }

        private void interfere(String path) {
            Matcher m;
            if ((m = NODE.matcher(path)).matches()) {
                String name = m.group(1);
                retryOwnConflicts(() -> client.nodes().withName(name).edit(annotated()));
                retryOwnConflicts(() -> client.nodes().withName(name).editStatus(n -> {
                    List<NodeCondition> conditions = new ArrayList<>(n.getStatus().getConditions());
                    conditions.removeIf(c -> "NetworkUnavailable".equals(c.getType()));
                    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
                    conditions.add(new NodeConditionBuilder().withType("NetworkUnavailable").withStatus("False")
                            .withReason("RouteCreated").withLastHeartbeatTime(now).withLastTransitionTime(now).build());
                    n.getStatus().setConditions(conditions);
                    return n;
                }));
                nodeWrites.incrementAndGet();
            } else if ((m = LEASE.matcher(path)).matches()) {
                String name = m.group(1);
                retryOwnConflicts(() -> client.leases().inNamespace(SimNodes.NODE_LEASE_NAMESPACE).withName(name)
                        .edit(annotated()));
                leaseWrites.incrementAndGet();
            } else if ((m = POD_STATUS.matcher(path)).matches()) {
                String ns = m.group(1);
                String name = m.group(2);
                retryOwnConflicts(() -> client.pods().inNamespace(ns).withName(name).editStatus(p -> {
                    List<PodCondition> conditions = new ArrayList<>(p.getStatus().getConditions() == null
                            ? List.of() : p.getStatus().getConditions());
                    conditions.removeIf(c -> WRITER_CONDITION.equals(c.getType()));
                    conditions.add(new PodConditionBuilder().withType(WRITER_CONDITION).withStatus("True")
                            .withLastProbeTime(Instant.now().toString()).build());
                    p.getStatus().setConditions(conditions);
                    return p;
                }));
                podWrites.incrementAndGet();
            }
        }

        private <T extends io.fabric8.kubernetes.api.model.HasMetadata> UnaryOperator<T> annotated() {
            return o -> {
                Map<String, String> annotations = new TreeMap<>(o.getMetadata().getAnnotations() == null
                        ? Map.of() : o.getMetadata().getAnnotations());
                annotations.put(ANNOTATION, Long.toString(System.nanoTime()));
                o.getMetadata().setAnnotations(annotations);
                return o;
            };
        }

        private static void retryOwnConflicts(Runnable write) {
            for (int attempt = 0; ; attempt++) {
                try {
                    write.run();
                    return;
                } catch (KubernetesClientException e) {
                    if (e.getCode() == 404) {
                        return;
                    }
                    if (e.getCode() != 409 || attempt >= 5) {
                        throw e;
                    }
                }
            }
        }
    }
}
