package dev.kruisevertx.agent.crr;

import dev.kruisevertx.agent.AgentOptions;
import dev.kruisevertx.agent.NodeAgent;
import dev.kruisevertx.agent.cri.CriEndpoint;
import dev.kruisevertx.agent.cri.GrpcCriClient;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainer;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainerContext;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestSpec;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestStrategy;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The agent process as started from its flags: it finds the runtime, watches its node's requests and recreates a
 * real container; a request of another node is left alone.
 */
class NodeAgentRecreatesContainersTest {
    static final Duration TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    Path dir;
    ClusterFixture cluster;
    NodeAgent agent;
    Vertx vertx;
    GrpcCriClient cri;
    TestKubelet kubelet;

    @AfterEach
    void tearDown() {
        if (agent != null) {
            TestKubelet.await(agent.stop());
        }
        if (kubelet != null) {
            kubelet.close();
        }
        if (vertx != null) {
            TestKubelet.await(cri.close());
            TestKubelet.await(vertx.close());
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theAgentRecreatesAContainerOfItsNodeOnly() throws Exception {
        CriEndpoint endpoint = CrrOnRealRuntimeTest.endpointOrSkip(true);
        cluster = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setAdmission(false)
                .setCrdDirectory(ClusterFixture.findCrdDirectory()));
        KubernetesClient client = cluster.client();
        Path kubeconfig = dir.resolve("kubeconfig");
        cluster.cluster().writeKubeconfig(kubeconfig);
        vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        cri = new GrpcCriClient(vertx, endpoint, Duration.ofSeconds(60), null);
        TestKubelet.await(cri.pullImage(CrrOnRealRuntimeTest.image(), null, null, Duration.ofMinutes(2)));

        kubelet = new TestKubelet(cri, client, CrrOnRealRuntimeTest.image(), dir, dir.resolve("logs"), "default",
                "wired-pod").container("app", CrrOnRealRuntimeTest.WELL_BEHAVED);
        Pod pod = kubelet.run(new PodBuilder().withNewSpec().addNewContainer().withName("app")
                .withImage(CrrOnRealRuntimeTest.image()).endContainer().endSpec().build(), "node-wired");
        long started = Instant.parse(pod.getStatus().getContainerStatuses().get(0).getState().getRunning()
                .getStartedAt()).getEpochSecond();
        Await.waitFor("the container's start second to pass", TIMEOUT, () -> Instant.now().getEpochSecond() > started);
        String oldId = kubelet.containerId("app");

        agent = new NodeAgent(AgentOptions.parse(List.of("--addr=127.0.0.1:0", "--kubeconfig=" + kubeconfig,
                "--runtime-endpoint=" + System.getenv("KRUISE_CRI_ENDPOINT")), Map.of("NODE_NAME", "node-wired")));
        TestKubelet.await(agent.start());

        create(client, pod, "other-node", "node-elsewhere");
        create(client, pod, "mine", "node-wired");

        ContainerRecreateRequest done = Await.waitFor("CRR mine completed", TIMEOUT, () -> {
            kubelet.sync();
            return client.resources(ContainerRecreateRequest.class).inNamespace("default").withName("mine").get();
        }, c -> c.isCompleted());
        assertEquals(ContainerRecreateRequestPhase.SUCCEEDED.value(),
                done.status().getContainerRecreateStates().get(0).getPhase());
        assertEquals(List.of("app exited", "app restarted"), kubelet.events);
        assertEquals(oldId, ObservedContainer.runtimeId(
                done.getSpec().getContainers().get(0).getStatusContext().getContainerID()));
        ContainerRecreateRequest other = client.resources(ContainerRecreateRequest.class).inNamespace("default")
                .withName("other-node").get();
        assertNull(other.getStatus() == null ? null : other.getStatus().getPhase());
    }

    private static void create(KubernetesClient client, Pod pod, String name, String node) {
        ContainerRecreateRequestContainer c = new ContainerRecreateRequestContainer("app");
        c.setStatusContext(new ContainerRecreateRequestContainerContext(
                pod.getStatus().getContainerStatuses().get(0).getContainerID(), 0));
        ContainerRecreateRequestSpec spec = new ContainerRecreateRequestSpec();
        spec.setPodName(pod.getMetadata().getName());
        spec.setContainers(List.of(c));
        ContainerRecreateRequestStrategy strategy = new ContainerRecreateRequestStrategy();
        strategy.setFailurePolicy("Fail");
        strategy.setTerminationGracePeriodSeconds(30L);
        spec.setStrategy(strategy);
        ContainerRecreateRequest crr = new ContainerRecreateRequest();
        crr.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default")
                .addToLabels(WellKnown.CRR_NODE_NAME_LABEL, node)
                .addToLabels(WellKnown.CRR_POD_UID_LABEL, pod.getMetadata().getUid())
                .addToLabels(WellKnown.CRR_ACTIVE_LABEL, "true").build());
        crr.setSpec(spec);
        client.resources(ContainerRecreateRequest.class).inNamespace("default").resource(crr).create();
    }
}
