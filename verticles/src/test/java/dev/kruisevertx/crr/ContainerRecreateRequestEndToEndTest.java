package dev.kruisevertx.crr;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainer;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainerRecreateState;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestSpec;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestStrategy;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.demo.DemoOptions;
import dev.kruisevertx.demo.DemoRunner;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.nodes.ContainerFailure;
import dev.kruisevertx.sim.nodes.ExecRecord;
import dev.kruisevertx.sim.nodes.ImageRule;
import dev.kruisevertx.sim.nodes.SimContainer;
import dev.kruisevertx.sim.nodes.SimNodes;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ContainerRecreateRequest end to end on the embedded cluster, as {@code demo} runs it: the manager (webhook and
 * controller), and per simulated node the node agent's CRR job speaking the CRI to that node's simulated runtime.
 */
class ContainerRecreateRequestEndToEndTest {
    static final Duration TIMEOUT = Duration.ofSeconds(90);
    static final String NS = "default";
    static DemoRunner product;
    static KubernetesClient client;
    static SimNodes nodes;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("crr-e2e");
        product = new DemoRunner(new DemoOptions(2, dir.resolve("kubeconfig"), 0, "127.0.0.1:0", "127.0.0.1:0", "0", "",
                null, true, Duration.ofSeconds(60)), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        product.start();
        client = product.cluster().client();
        nodes = product.cluster().nodes();
        nodes.addImageRule(new ImageRule("*:unstoppable", Duration.ZERO, ContainerFailure.STOP_ERROR));
    }

    @AfterAll
    static void stop() throws Exception {
        if (product != null) {
            product.close();
        }
    }

    static Pod runningPod(String name, String... containers) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().endSpec();
        for (String c : containers) {
            String[] nameAndImage = c.split("=");
            b.editSpec().addNewContainer().withName(nameAndImage[0]).withImage(nameAndImage[1])
                    .withNewLifecycle().withNewPreStop().withNewExec().withCommand("/bin/sh", "-c", "echo bye " + nameAndImage[0])
                    .endExec().endPreStop().endLifecycle().endContainer().endSpec();
        }
        client.pods().inNamespace(NS).resource(b.build()).create();
        Pod ready = Await.waitFor("pod " + name + " ready", TIMEOUT, () -> client.pods().inNamespace(NS).withName(name).get(),
                p -> Pods.conditionTrue(p, "Ready"));
        // As in OpenKruise, a container that started after the request's creationTimestamp (whole seconds) counts as
        // already recreated; a request made in the second its containers started would find nothing to do.
        Await.waitFor("the containers of " + name + " started in an earlier second", TIMEOUT, () -> {
            Instant second = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            return ready.getStatus().getContainerStatuses().stream().allMatch(cs ->
                    container(ready.getSpec().getNodeName(), cs.getContainerID()).startedAt().isBefore(second));
        });
        return ready;
    }

    static ContainerRecreateRequest create(String name, String pod, ContainerRecreateRequestStrategy strategy,
            String... containers) {
        ContainerRecreateRequestSpec spec = new ContainerRecreateRequestSpec();
        spec.setPodName(pod);
        spec.setContainers(Arrays.stream(containers).map(ContainerRecreateRequestContainer::new).toList());
        spec.setStrategy(strategy);
        ContainerRecreateRequest crr = new ContainerRecreateRequest();
        crr.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
        crr.setSpec(spec);
        return client.resources(ContainerRecreateRequest.class).inNamespace(NS).resource(crr).create();
    }

    static ContainerRecreateRequest completed(String name) {
        return Await.waitFor("ContainerRecreateRequest " + name + " Completed", TIMEOUT,
                () -> client.resources(ContainerRecreateRequest.class).inNamespace(NS).withName(name).get(),
                c -> c != null && ContainerRecreateRequestPhase.COMPLETED.value().equals(c.status().getPhase())
                        && !Pods.labels(c).containsKey(WellKnown.CRR_ACTIVE_LABEL));
    }

    static String phaseOf(ContainerRecreateRequest crr, String container) {
        return crr.status().getContainerRecreateStates().stream().filter(s -> s.getName().equals(container))
                .map(ContainerRecreateRequestContainerRecreateState::getPhase).findFirst().orElse(null);
    }

    static ContainerStatus status(Pod pod, String container) {
        return Pods.containerStatus(pod, container).orElseThrow();
    }

    static Pod pod(String name) {
        return client.pods().inNamespace(NS).withName(name).get();
    }

    static String runtimeId(String containerId) {
        return containerId.substring(containerId.indexOf("://") + 3);
    }

    static SimContainer container(String node, String containerId) {
        return nodes.container(node, runtimeId(containerId)).orElseThrow();
    }

    @Test
    void aRequestRestartsTheContainerAfterItsPreStopHook() {
        Pod before = runningPod("e2e-restart", "main=nginx:1.25");
        String node = before.getSpec().getNodeName();
        ContainerRecreateRequest created = create("e2e-restart", "e2e-restart", null, "main");
        // The webhook filled in the pod's node, uid, the current container and its preStop hook.
        assertEquals(node, Pods.labels(created).get(WellKnown.CRR_NODE_NAME_LABEL));
        assertEquals(before.getMetadata().getUid(), Pods.labels(created).get(WellKnown.CRR_POD_UID_LABEL));
        assertEquals(status(before, "main").getContainerID(),
                created.spec().getContainers().get(0).getStatusContext().getContainerID());

        ContainerRecreateRequest done = completed("e2e-restart");
        assertEquals(ContainerRecreateRequestPhase.SUCCEEDED.value(), phaseOf(done, "main"));
        assertTrue(done.status().getCompletionTime() != null);

        Pod after = pod("e2e-restart");
        assertNotEquals(status(before, "main").getContainerID(), status(after, "main").getContainerID());
        assertEquals(status(before, "main").getRestartCount() + 1, status(after, "main").getRestartCount());
        assertEquals(SimContainer.State.EXITED, container(node, status(before, "main").getContainerID()).state());
        assertEquals(SimContainer.State.RUNNING, container(node, status(after, "main").getContainerID()).state());
        List<ExecRecord> hooks = nodes.execs().stream()
                .filter(e -> e.containerId().equals(runtimeId(status(before, "main").getContainerID()))).toList();
        assertEquals(1, hooks.size(), hooks.toString());
        assertEquals(List.of("/bin/sh", "-c", "echo bye main"), hooks.get(0).command());
    }

    @Test
    void orderedRecreationStopsTheNextContainerOnlyAfterThePreviousIsBack() {
        Pod before = runningPod("e2e-ordered", "first=nginx:1.25", "second=redis:7");
        String node = before.getSpec().getNodeName();
        ContainerRecreateRequestStrategy strategy = new ContainerRecreateRequestStrategy();
        strategy.setOrderedRecreate(true);
        strategy.setMinStartedSeconds(1);
        create("e2e-ordered", "e2e-ordered", strategy, "first", "second");

        ContainerRecreateRequest done = completed("e2e-ordered");
        assertEquals(ContainerRecreateRequestPhase.SUCCEEDED.value(), phaseOf(done, "first"));
        assertEquals(ContainerRecreateRequestPhase.SUCCEEDED.value(), phaseOf(done, "second"));
        Pod after = pod("e2e-ordered");
        SimContainer oldFirst = container(node, status(before, "first").getContainerID());
        SimContainer newFirst = container(node, status(after, "first").getContainerID());
        SimContainer oldSecond = container(node, status(before, "second").getContainerID());
        assertEquals(1, status(after, "first").getRestartCount());
        assertEquals(1, status(after, "second").getRestartCount());
        // The second container was stopped only after the first one's replacement had run minStartedSeconds.
        assertTrue(oldFirst.finishedAt().isBefore(oldSecond.finishedAt()), oldFirst + " / " + oldSecond);
        assertFalse(oldSecond.finishedAt().isBefore(newFirst.startedAt().plusSeconds(1)), newFirst + " / " + oldSecond);
    }

    @Test
    void failurePolicyFailEndsAtTheFirstContainerThatCannotBeStopped() {
        Pod before = runningPod("e2e-fail", "stuck=app:unstoppable", "other=nginx:1.25");
        ContainerRecreateRequestStrategy strategy = new ContainerRecreateRequestStrategy();
        strategy.setFailurePolicy("Fail");
        strategy.setOrderedRecreate(true);
        create("e2e-fail", "e2e-fail", strategy, "stuck", "other");

        ContainerRecreateRequest done = completed("e2e-fail");
        assertEquals(ContainerRecreateRequestPhase.FAILED.value(), phaseOf(done, "stuck"));
        assertTrue(done.status().getContainerRecreateStates().get(0).getMessage().startsWith("kill container error"),
                done.status().getContainerRecreateStates().toString());
        assertEquals(ContainerRecreateRequestPhase.PENDING.value(), phaseOf(done, "other"));
        Pod after = pod("e2e-fail");
        assertEquals(status(before, "stuck").getContainerID(), status(after, "stuck").getContainerID());
        assertEquals(status(before, "other").getContainerID(), status(after, "other").getContainerID());
    }

    @Test
    void failurePolicyIgnoreGoesOnWithTheOtherContainers() {
        Pod before = runningPod("e2e-ignore", "stuck=app:unstoppable", "other=nginx:1.25");
        ContainerRecreateRequestStrategy strategy = new ContainerRecreateRequestStrategy();
        strategy.setFailurePolicy("Ignore");
        create("e2e-ignore", "e2e-ignore", strategy, "stuck", "other");

        ContainerRecreateRequest done = completed("e2e-ignore");
        assertEquals(ContainerRecreateRequestPhase.FAILED.value(), phaseOf(done, "stuck"));
        assertEquals(ContainerRecreateRequestPhase.SUCCEEDED.value(), phaseOf(done, "other"));
        Pod after = pod("e2e-ignore");
        assertEquals(status(before, "stuck").getContainerID(), status(after, "stuck").getContainerID());
        assertNotEquals(status(before, "other").getContainerID(), status(after, "other").getContainerID());
        assertEquals(1, status(after, "other").getRestartCount());
        assertNull(Pods.labels(done).get(WellKnown.CRR_ACTIVE_LABEL));
    }

    @Test
    void aRequestForAPodOnAVirtualKubeletNodeIsLabelledSo() {
        Pod pod = runningPod("e2e-vk", "main=nginx:1.25");
        String node = pod.getSpec().getNodeName();
        ConflictRetry.run(() -> client.nodes().withName(node).edit(n -> {
            n.getMetadata().getLabels().put("type", "virtual-kubelet");
            return n;
        }));
        try {
            ContainerRecreateRequest created = create("e2e-vk", "e2e-vk", null, "main");
            assertEquals("virtual-kubelet", Pods.labels(created).get("type"));
            completed("e2e-vk");
        } finally {
            ConflictRetry.run(() -> client.nodes().withName(node).edit(n -> {
                n.getMetadata().getLabels().remove("type");
                return n;
            }));
        }
        ContainerRecreateRequest plain = create("e2e-plain", "e2e-vk", null, "main");
        assertNull(Pods.labels(plain).get("type"));
    }
}
