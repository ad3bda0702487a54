package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Containers of restartPolicy Never/OnFailure pods that exit, and the phases and states kubelet reports for them. */
class ContainerExitTest {
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static ClusterFixture fixture;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        SimNodesOptions nodes = new SimNodesOptions().setContainerRestartDelay(Duration.ofMillis(300))
                .addExitRule(new ExitRule("batch/*", new ContainerExit(0, Duration.ofMillis(300))));
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(2).setNodeOptions(nodes).setBuiltinControllers(false));
        client = fixture.client();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    static Pod create(String name, String restartPolicy, String exit, String... images) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withRestartPolicy(restartPolicy).endSpec();
        if (exit != null) {
            b.editMetadata().addToAnnotations(ContainerExit.ANNOTATION, exit).endMetadata();
        }
        for (int i = 0; i < images.length; i++) {
            b.editSpec().addNewContainer().withName(i == 0 ? "main" : "c" + i).withImage(images[i]).endContainer().endSpec();
        }
        return client.pods().inNamespace("default").resource(b.build()).create();
    }

    static Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    static Pod waitPhase(String name, String phase) {
        return Await.waitFor("pod " + name + " " + phase, TIMEOUT, () -> get(name), p -> p != null && p.getStatus() != null
                && phase.equals(p.getStatus().getPhase()));
    }

    static String readyReason(Pod p) {
        return p.getStatus().getConditions().stream().filter(c -> c.getType().equals("Ready")).findFirst().orElseThrow().getReason();
    }

    @Test
    void neverPodSucceedsWithExitCodeZero() {
        create("ok", "Never", "code=0,after=500ms", "app:1");
        Pod p = waitPhase("ok", "Succeeded");
        ContainerStateTerminated t = p.getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertEquals(0, t.getExitCode());
        assertEquals("Completed", t.getReason());
        assertNotNull(t.getStartedAt());
        assertNotNull(t.getFinishedAt());
        assertTrue(t.getContainerID().startsWith("containerd://"));
        assertEquals("PodCompleted", readyReason(p));
    }

    @Test
    void neverPodFailsWithItsExitCode() {
        create("bad", "Never", "code=3,after=200ms", "app:1");
        Pod p = waitPhase("bad", "Failed");
        ContainerStateTerminated t = p.getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertEquals(3, t.getExitCode());
        assertEquals("Error", t.getReason());
        assertEquals(0, p.getStatus().getContainerStatuses().get(0).getRestartCount());
    }

    @Test
    void onFailureRestartsFailedContainers() {
        create("retry", "OnFailure", "code=1,after=300ms", "app:1");
        Pod p = Await.waitFor("two restarts", TIMEOUT, () -> get("retry"), x -> x.getStatus().getContainerStatuses() != null
                && !x.getStatus().getContainerStatuses().isEmpty() && x.getStatus().getContainerStatuses().get(0).getRestartCount() >= 2);
        assertEquals("Running", p.getStatus().getPhase());
        ContainerStatus cs = p.getStatus().getContainerStatuses().get(0);
        assertEquals(1, cs.getLastState().getTerminated().getExitCode());
        assertEquals("Error", cs.getLastState().getTerminated().getReason());
    }

    @Test
    void onFailureSucceedsOnExitCodeZero() {
        create("once", "OnFailure", "code=0,after=200ms", "app:1");
        assertEquals(0, waitPhase("once", "Succeeded").getStatus().getContainerStatuses().get(0).getRestartCount());
    }

    @Test
    void alwaysPodsNeverFinish() throws InterruptedException {
        create("forever", "Always", "code=0,after=100ms", "app:1");
        waitPhase("forever", "Running");
        Thread.sleep(1500);
        Pod p = get("forever");
        assertEquals("Running", p.getStatus().getPhase());
        assertNotNull(p.getStatus().getContainerStatuses().get(0).getState().getRunning());
    }

    @Test
    void sidecarKeepsThePodRunningAfterTheMainContainerEnds() {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("sidecar")
                .addToAnnotations(ContainerExit.ANNOTATION + ".main", "code=0,after=300ms").endMetadata()
                .withNewSpec().withRestartPolicy("Never")
                .addNewContainer().withName("main").withImage("app:1").endContainer()
                .addNewContainer().withName("proxy").withImage("proxy:1").endContainer().endSpec();
        client.pods().inNamespace("default").resource(b.build()).create();
        Pod p = Await.waitFor("main terminated", TIMEOUT, () -> get("sidecar"), x -> x.getStatus().getContainerStatuses() != null
                && x.getStatus().getContainerStatuses().size() == 2
                && x.getStatus().getContainerStatuses().get(0).getState().getTerminated() != null);
        assertEquals("Running", p.getStatus().getPhase());
        assertNotNull(p.getStatus().getContainerStatuses().get(1).getState().getRunning());
        assertEquals("ContainersNotReady", readyReason(p));
    }

    @Test
    void nativeSidecarEndsWithTheMainContainers() {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("native").endMetadata()
                .withNewSpec().withRestartPolicy("Never")
                .addNewInitContainer().withName("proxy").withImage("proxy:1").withRestartPolicy("Always").endInitContainer()
                .addNewContainer().withName("main").withImage("batch/work:1").endContainer().endSpec();
        client.pods().inNamespace("default").resource(b.build()).create();
        Pod p = waitPhase("native", "Succeeded");
        ContainerStateTerminated sidecar = p.getStatus().getInitContainerStatuses().get(0).getState().getTerminated();
        assertEquals(0, sidecar.getExitCode());
        assertEquals("Completed", sidecar.getReason());
    }

    @Test
    void exitRulesApplyByImage() {
        create("byimage", "Never", null, "batch/report:2");
        Pod p = waitPhase("byimage", "Succeeded");
        assertEquals(0, p.getStatus().getContainerStatuses().get(0).getState().getTerminated().getExitCode());
        assertNull(get("byimage").getStatus().getContainerStatuses().get(0).getState().getRunning());
    }

    @Test
    void badExitTextIsRefusedWithTheExpectedForm() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ContainerExit.parse("code=x"));
        assertTrue(e.getMessage().contains("code=0,after=2s"), e.getMessage());
        assertEquals(new ContainerExit(7, Duration.ofSeconds(2)), ContainerExit.parse("code=7, after=2s"));
    }
}
