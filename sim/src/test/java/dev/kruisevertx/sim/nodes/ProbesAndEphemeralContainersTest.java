package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kubelet's probes (from per-image rules) and ephemeral containers, end to end. */
class ProbesAndEphemeralContainersTest {
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static ClusterFixture fixture;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        SimNodesOptions nodes = new SimNodesOptions()
                .addProbeRule(new ProbeRule("unready/*", ProbeRule.Kind.READINESS, ProbeRule.Result.FAIL))
                .addProbeRule(new ProbeRule("dying/*", ProbeRule.Kind.LIVENESS, ProbeRule.Result.FAIL))
                .addProbeRule(new ProbeRule("slowstart/*", ProbeRule.Kind.STARTUP, ProbeRule.Result.FLAP, 4))
                .setProbeTimeScale(0.1);
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(1).setNodeOptions(nodes));
        client = fixture.client();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    static Probe exec() {
        return new ProbeBuilder().withNewExec().withCommand("true").endExec().withPeriodSeconds(2).withFailureThreshold(2).build();
    }

    static Pod create(String name, String image, Probe readiness, Probe liveness, Probe startup) {
        return client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage(image).withReadinessProbe(readiness)
                .withLivenessProbe(liveness).withStartupProbe(startup).endContainer().endSpec().build()).create();
    }

    static Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    static ContainerStatus status(Pod p) {
        return p == null || p.getStatus() == null || p.getStatus().getContainerStatuses() == null
                || p.getStatus().getContainerStatuses().isEmpty() ? null : p.getStatus().getContainerStatuses().get(0);
    }

    static String ready(Pod p) {
        return SchedulerTest.condition(p, "Ready") == null ? null : SchedulerTest.condition(p, "Ready").getStatus();
    }

    @Test
    void failingReadinessProbeKeepsThePodUnready() {
        create("passing", "app/ok:1", new ProbeBuilder().withNewHttpGet().withPath("/ready")
                .withNewPort(8080).endHttpGet().withInitialDelaySeconds(5).build(), null, null);
        create("failing", "unready/app:1", new ProbeBuilder().withNewTcpSocket().withNewPort(8080).endTcpSocket().build(), null, null);
        Await.waitFor("passing pod Ready", TIMEOUT, () -> get("passing"), p -> "True".equals(ready(p)));
        Pod failing = Await.waitFor("failing pod running", TIMEOUT, () -> get("failing"),
                p -> status(p) != null && status(p).getState().getRunning() != null);
        // It runs, but its readiness probe never succeeds.
        Await.waitFor("container started", TIMEOUT, () -> get("failing"), p -> Boolean.TRUE.equals(status(p).getStarted()));
        failing = get("failing");
        assertFalse(status(failing).getReady());
        assertEquals("False", ready(failing));
        assertEquals("ContainersNotReady", SchedulerTest.condition(failing, "ContainersReady").getReason());
    }

    @Test
    void failingLivenessProbeRestartsTheContainer() {
        Pod created = create("dying", "dying/app:1", null, new ProbeBuilder().withNewGrpc().withPort(9000).endGrpc()
                .withPeriodSeconds(2).withFailureThreshold(2).build(), null);
        Pod restarted = Await.waitFor("container restarted by its liveness probe", TIMEOUT, () -> get("dying"),
                p -> status(p) != null && status(p).getRestartCount() >= 1 && status(p).getLastState() != null
                        && status(p).getLastState().getTerminated() != null);
        assertEquals(137, status(restarted).getLastState().getTerminated().getExitCode());
        assertNotNull(created);
        String firstId = status(restarted).getLastState().getTerminated().getContainerID();
        Await.waitFor("a new container runs", TIMEOUT, () -> get("dying"),
                p -> status(p).getState().getRunning() != null && !firstId.equals(status(p).getContainerID()));
    }

    @Test
    void startupProbeGatesReadiness() {
        // The startup probe first fires 100 s (10 s scaled) after the container starts; until it succeeds the
        // container is not started and its (always passing) readiness probe does not count.
        Probe startup = new ProbeBuilder().withNewExec().withCommand("check").endExec().withInitialDelaySeconds(100)
                .withPeriodSeconds(3).withFailureThreshold(10).build();
        create("slow", "slowstart/app:1", exec(), null, startup);
        Pod early = Await.waitFor("running", TIMEOUT, () -> get("slow"), p -> status(p) != null && status(p).getState().getRunning() != null);
        assertFalse(status(early).getStarted());
        assertFalse(status(early).getReady());
        assertEquals("False", ready(early));
        Await.waitFor("started", TIMEOUT, () -> get("slow"), p -> Boolean.TRUE.equals(status(p).getStarted()));
        assertEquals("True", Await.waitFor("Ready", TIMEOUT, () -> ready(get("slow")), "True"::equals));
    }

    @Test
    void ephemeralContainerRunsAndIsReported() {
        create("debugged", "app/ok:1", null, null, null);
        Await.waitFor("pod Ready", TIMEOUT, () -> get("debugged"), p -> "True".equals(ready(p)));
        String patch = "{\"spec\":{\"ephemeralContainers\":[{\"name\":\"debugger\",\"image\":\"busybox:1\",\"command\":[\"sh\"],\"stdin\":true,\"tty\":true}]}}";
        client.pods().inNamespace("default").withName("debugged").subresource("ephemeralcontainers")
                .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
        Pod p = Await.waitFor("ephemeral container running", TIMEOUT, () -> get("debugged"),
                x -> x.getStatus().getEphemeralContainerStatuses() != null && !x.getStatus().getEphemeralContainerStatuses().isEmpty()
                        && x.getStatus().getEphemeralContainerStatuses().get(0).getState().getRunning() != null);
        ContainerStatus debugger = p.getStatus().getEphemeralContainerStatuses().get(0);
        assertEquals("debugger", debugger.getName());
        assertTrue(debugger.getContainerID().startsWith("containerd://"));
        assertNotEquals(status(p).getContainerID(), debugger.getContainerID());
        // Existing ephemeral containers cannot be removed, and the main resource cannot add them.
        KubernetesClientException removed = assertThrows(KubernetesClientException.class, () -> client.pods().inNamespace("default")
                .withName("debugged").subresource("ephemeralcontainers").patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"ephemeralContainers\":[]}}"));
        assertEquals(422, removed.getCode());
    }

    /** An ephemeral container ends by its pod's exit annotation, even in an Always pod, and is not restarted. */
    @Test
    void ephemeralContainerEndsByItsExitAnnotation() {
        client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("debug-exit")
                .addToAnnotations("sim.kruise-vertx.dev/exit.debugger", "code=7,after=300ms").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("app/ok:1").endContainer().endSpec().build())
                .create();
        Await.waitFor("pod Ready", TIMEOUT, () -> get("debug-exit"), p -> "True".equals(ready(p)));
        client.pods().inNamespace("default").withName("debug-exit").subresource("ephemeralcontainers")
                .patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                        "{\"spec\":{\"ephemeralContainers\":[{\"name\":\"debugger\",\"image\":\"busybox:1\"}]}}");
        Pod p = Await.waitFor("ephemeral container exited", TIMEOUT, () -> get("debug-exit"),
                x -> x.getStatus().getEphemeralContainerStatuses() != null && !x.getStatus().getEphemeralContainerStatuses().isEmpty()
                        && x.getStatus().getEphemeralContainerStatuses().get(0).getState().getTerminated() != null);
        ContainerStatus debugger = p.getStatus().getEphemeralContainerStatuses().get(0);
        assertEquals(7, debugger.getState().getTerminated().getExitCode());
        assertEquals("Error", debugger.getState().getTerminated().getReason());
        assertEquals(0, debugger.getRestartCount());
        assertEquals("Running", p.getStatus().getPhase(), "the pod's own container keeps running");
    }
}
