package dev.kruisevertx.crr;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainer;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestSpec;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestStrategy;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.manager.ManagerApp;
import dev.kruisevertx.manager.ManagerCommand;
import dev.kruisevertx.manager.ManagerConfig;
import dev.kruisevertx.podutil.KruisePodReadiness;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.demo.EmbeddedProduct;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The manager's containerrecreaterequest controller on the embedded cluster, with the test playing the node agent. */
class ContainerRecreateRequestControllerTest {
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static final String NS = "default";
    static ClusterFixture cluster;
    static KubernetesClient client;
    static ManagerApp manager;

    @BeforeAll
    static void start() throws Exception {
        cluster = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setAdmission(false));
        client = cluster.client();
        // The chart's webhook configurations: the manager starts its controllers once its webhook has synced them.
        EmbeddedProduct.install(cluster.cluster());
        List<ControllerDefinition> controllers = List.of(new ContainerRecreateRequestController());
        ManagerCommand command = new ManagerCommand();
        CommandLine cl = new CommandLine(command);
        ManagerCommand.addWorkerFlags(cl.getCommandSpec(), controllers);
        cl.parseArgs("--metrics-addr=127.0.0.1:0", "--health-probe-addr=127.0.0.1:0", "--debug-addr=0", "--enable-leader-election=false");
        ManagerConfig config = command.toConfig(cl.getCommandSpec(), controllers, EmbeddedProduct.localWebhookEnv(
                Map.of(), java.nio.file.Files.createTempDirectory("crr-webhook-certs")));
        manager = ManagerApp.start(config, KubeClients.forTest(client.getConfiguration()), controllers)
                .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        if (manager != null) {
            manager.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    static Pod gatedPod(String name) {
        Pod pod = client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withNodeName("node-a").addNewReadinessGate()
                .withConditionType(WellKnown.KRUISE_POD_READY_CONDITION).endReadinessGate()
                .addNewContainer().withName("app").withImage("busybox").endContainer().endSpec().build()).create();
        return client.pods().inNamespace(NS).resource(new PodBuilder(pod).editOrNewStatus().withPhase("Running")
                .addNewCondition().withType(WellKnown.KRUISE_POD_READY_CONDITION).withStatus("True").endCondition()
                .addNewContainerStatus().withName("app").withContainerID("containerd://c1").withRestartCount(0)
                .withReady(true).withNewState().withNewRunning().withStartedAt("2026-01-01T00:00:00Z").endRunning()
                .endState().endContainerStatus().endStatus().build()).updateStatus();
    }

    static ContainerRecreateRequest create(Pod pod, String name, ContainerRecreateRequestStrategy strategy,
            Long deadline, Integer ttl) {
        ContainerRecreateRequestSpec spec = new ContainerRecreateRequestSpec();
        spec.setPodName(pod.getMetadata().getName());
        spec.setContainers(List.of(new ContainerRecreateRequestContainer("app")));
        spec.setStrategy(strategy);
        spec.setActiveDeadlineSeconds(deadline);
        spec.setTtlSecondsAfterFinished(ttl);
        ContainerRecreateRequest crr = new ContainerRecreateRequest();
        crr.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS)
                .addToLabels(WellKnown.CRR_POD_UID_LABEL, pod.getMetadata().getUid())
                .addToLabels(WellKnown.CRR_NODE_NAME_LABEL, "node-a")
                .addToLabels(WellKnown.CRR_ACTIVE_LABEL, "true").build());
        crr.setSpec(spec);
        return client.resources(ContainerRecreateRequest.class).inNamespace(NS).resource(crr).create();
    }

    static ContainerRecreateRequest get(String name) {
        return client.resources(ContainerRecreateRequest.class).inNamespace(NS).withName(name).get();
    }

    /** What the node agent writes. */
    static void agentWritesStatus(String name, Map<String, Object> status) {
        client.resources(ContainerRecreateRequest.class).inNamespace(NS).withName(name).subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), dev.kruisevertx.api.common.ApiJson.toJson(Map.of("status", status)));
    }

    @Test
    void unreadyGraceTakesThePodOutOfServiceAndGivesItBackWhenDone() {
        Pod pod = gatedPod("unready-pod");
        ContainerRecreateRequestStrategy strategy = new ContainerRecreateRequestStrategy();
        strategy.setUnreadyGracePeriodSeconds(3L);
        create(pod, "unready", strategy, null, 2);
        agentWritesStatus("unready", Map.of("phase", "Recreating"));

        ContainerRecreateRequest acquired = Await.waitFor("the unready grace acquired", TIMEOUT, () -> get("unready"),
                c -> Pods.annotations(c).containsKey(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER));
        assertTrue(acquired.getMetadata().getFinalizers().contains(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER));
        assertNotNull(Pods.parseTime(Pods.annotations(acquired).get(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER)));
        assertEquals("[]", Pods.annotations(acquired).get(WellKnown.CRR_SYNC_CONTAINER_STATUSES_ANNOTATION));
        Pod unready = client.pods().inNamespace(NS).withName("unready-pod").get();
        assertFalse(Pods.conditionTrue(unready, WellKnown.KRUISE_POD_READY_CONDITION));
        assertEquals(List.of(new KruisePodReadiness.Message("ContainerRecreateRequest", NS + "/unready")),
                KruisePodReadiness.notReadyKeys(unready));

        agentWritesStatus("unready", Map.of("phase", "Completed", "completionTime", Pods.formatTime(Instant.now())));

        Await.waitFor("the pod ready again", TIMEOUT, () -> client.pods().inNamespace(NS).withName("unready-pod").get(),
                p -> Pods.conditionTrue(p, WellKnown.KRUISE_POD_READY_CONDITION));
        // Then the request loses its finalizer and active label, and expires after its TTL.
        Await.waitFor("the request deleted after ttlSecondsAfterFinished", TIMEOUT, () -> get("unready"), c -> c == null);
    }

    @Test
    void activeDeadlineSecondsCompletesARequestThatTakesTooLong() {
        Pod pod = gatedPod("deadline-pod");
        create(pod, "deadline", new ContainerRecreateRequestStrategy(), 2L, null);
        agentWritesStatus("deadline", Map.of("phase", "Recreating"));

        ContainerRecreateRequest done = Await.waitFor("the request completed", TIMEOUT, () -> get("deadline"),
                c -> c.isCompleted() && !Pods.labels(c).containsKey(WellKnown.CRR_ACTIVE_LABEL));
        assertEquals("Completed", done.status().getPhase());
        assertEquals("recreating has exceeded the activeDeadlineSeconds", done.status().getMessage());
    }

    @Test
    void aRequestForADeletedPodIsCompleted() {
        Pod pod = gatedPod("gone-pod");
        create(pod, "gone", new ContainerRecreateRequestStrategy(), null, null);
        client.pods().inNamespace(NS).withName("gone-pod").withGracePeriod(0).delete();

        ContainerRecreateRequest done = Await.waitFor("the request completed", TIMEOUT, () -> get("gone"),
                ContainerRecreateRequest::isCompleted);
        assertEquals("pod has gone", done.status().getMessage());
    }
}
