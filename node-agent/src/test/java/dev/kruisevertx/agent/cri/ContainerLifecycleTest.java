package dev.kruisevertx.agent.cri;

import dev.kruisevertx.cri.v1.Container;
import dev.kruisevertx.cri.v1.ContainerConfig;
import dev.kruisevertx.cri.v1.ContainerFilter;
import dev.kruisevertx.cri.v1.ContainerMetadata;
import dev.kruisevertx.cri.v1.ContainerState;
import dev.kruisevertx.cri.v1.ContainerStatus;
import dev.kruisevertx.cri.v1.ExecSyncResponse;
import dev.kruisevertx.cri.v1.ImageSpec;
import dev.kruisevertx.cri.v1.LinuxContainerConfig;
import dev.kruisevertx.cri.v1.LinuxContainerSecurityContext;
import dev.kruisevertx.cri.v1.LinuxPodSandboxConfig;
import dev.kruisevertx.cri.v1.LinuxSandboxSecurityContext;
import dev.kruisevertx.cri.v1.NamespaceMode;
import dev.kruisevertx.cri.v1.NamespaceOption;
import dev.kruisevertx.cri.v1.PodSandboxConfig;
import dev.kruisevertx.cri.v1.PodSandboxMetadata;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static dev.kruisevertx.agent.cri.RealRuntime.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real host-network pod on containerd, driven as kubelet would: sandbox, busybox container, exec, stop.
 * The sandbox leaves the hostname empty (host network shares the host's UTS namespace).
 */
class ContainerLifecycleTest {
    static Vertx vertx;
    static GrpcCriClient client;
    static Path logs;

    String sandboxId;
    PodSandboxConfig sandbox;

    @BeforeAll
    static void connect() throws Exception {
        // Skipping (or failing, in CI) happens per test in requireRuntime(), so each test reports it.
        CriEndpoint endpoint = RealRuntime.endpointIfPresent();
        if (endpoint == null) {
            return;
        }
        vertx = RealRuntime.nativeVertx();
        client = new GrpcCriClient(vertx, endpoint, Duration.ofSeconds(60), null);
        await(client.pullImage(RealRuntime.busyboxImage(), null, null, Duration.ofMinutes(2)));
        logs = Files.createTempDirectory("kruise-cri-logs");
    }

    @AfterAll
    static void close() {
        if (vertx != null) {
            await(client.close());
            await(vertx.close());
        }
    }

    @BeforeEach
    void runSandbox() {
        RealRuntime.endpoint();
        String uid = UUID.randomUUID().toString();
        NamespaceOption hostNetwork = NamespaceOption.newBuilder()
                .setNetwork(NamespaceMode.NODE).setPid(NamespaceMode.CONTAINER).setIpc(NamespaceMode.POD).build();
        sandbox = PodSandboxConfig.newBuilder()
                .setMetadata(PodSandboxMetadata.newBuilder().setName("cri-test-" + uid.substring(0, 8))
                        .setNamespace("kruise-vertx-test").setUid(uid))
                .setLogDirectory(logs.resolve(uid).toString())
                .putLabels("io.kubernetes.pod.uid", uid)
                .setLinux(LinuxPodSandboxConfig.newBuilder().setSecurityContext(
                        LinuxSandboxSecurityContext.newBuilder().setNamespaceOptions(hostNetwork)))
                .build();
        sandboxId = await(client.runPodSandbox(sandbox));
    }

    @AfterEach
    void removeSandbox() {
        if (sandboxId != null) {
            await(client.stopPodSandbox(sandboxId));
            await(client.removePodSandbox(sandboxId));
        }
    }

    private String startBusybox(String name, String script) {
        ContainerConfig config = ContainerConfig.newBuilder()
                .setMetadata(ContainerMetadata.newBuilder().setName(name))
                .setImage(ImageSpec.newBuilder().setImage(RealRuntime.busyboxImage()))
                .addAllCommand(List.of("/bin/sh", "-c", script))
                .setLogPath(name + "/0.log")
                .putLabels("io.kubernetes.container.name", name)
                .setLinux(LinuxContainerConfig.newBuilder().setSecurityContext(LinuxContainerSecurityContext.newBuilder()
                        .setNamespaceOptions(sandbox.getLinux().getSecurityContext().getNamespaceOptions())))
                .build();
        String id = await(client.createContainer(sandboxId, config, sandbox));
        await(client.startContainer(id));
        return id;
    }

    /** Polls the container's status until it is in {@code state}; fails after {@link RealRuntime#WAIT}. */
    private ContainerStatus waitForState(String id, ContainerState state) throws InterruptedException {
        long until = System.nanoTime() + RealRuntime.WAIT.toNanos();
        ContainerStatus status;
        do {
            status = await(client.containerStatus(id));
            if (status.getState() == state) {
                return status;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < until);
        throw new AssertionError("container " + id + " still " + status.getState() + ", expected " + state);
    }

    @Test
    void containerRunsAnswersExecAndStopsGracefully() throws Exception {
        // The shell exits 0 on SIGTERM, as a well-behaved app would within its grace period.
        String id = startBusybox("main", "trap 'exit 0' TERM; while true; do sleep 1; done");

        ContainerStatus running = waitForState(id, ContainerState.CONTAINER_RUNNING);
        assertTrue(running.getStartedAt() > 0);
        assertEquals("main", running.getMetadata().getName());

        List<Container> listed = await(client.listContainers(ContainerFilter.newBuilder().setPodSandboxId(sandboxId).build()));
        assertEquals(List.of(id), listed.stream().map(Container::getId).toList());
        assertEquals(ContainerState.CONTAINER_RUNNING, listed.get(0).getState());

        ExecSyncResponse hello = await(client.execSync(id, List.of("/bin/echo", "hello from exec"), Duration.ofSeconds(30)));
        assertEquals(0, hello.getExitCode());
        assertEquals("hello from exec\n", hello.getStdout().toString(StandardCharsets.UTF_8));

        ExecSyncResponse failing = await(client.execSync(id, List.of("/bin/sh", "-c", "echo oops >&2; exit 3"), Duration.ofSeconds(30)));
        assertEquals(3, failing.getExitCode());
        assertEquals("oops\n", failing.getStderr().toString(StandardCharsets.UTF_8));

        await(client.stopContainer(id, Duration.ofSeconds(20)));
        ContainerStatus exited = waitForState(id, ContainerState.CONTAINER_EXITED);
        assertEquals(0, exited.getExitCode(), exited.toString());
        assertTrue(exited.getFinishedAt() >= exited.getStartedAt());

        // Stopping again is not an error.
        await(client.stopContainer(id, Duration.ofSeconds(1)));
        List<Container> exitedOnly = await(client.listContainers(ContainerFilter.newBuilder().setPodSandboxId(sandboxId)
                .setState(dev.kruisevertx.cri.v1.ContainerStateValue.newBuilder().setState(ContainerState.CONTAINER_EXITED))
                .build()));
        assertEquals(List.of(id), exitedOnly.stream().map(Container::getId).toList());
    }

    @Test
    void containerIgnoringSigtermIsKilledAfterTheGracePeriod() throws Exception {
        // busybox sh as PID 1 ignores SIGTERM without a trap: only the kill after the grace period ends it.
        String id = startBusybox("stubborn", "while true; do sleep 1; done");
        waitForState(id, ContainerState.CONTAINER_RUNNING);

        long started = System.nanoTime();
        await(client.stopContainer(id, Duration.ofSeconds(2)));
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        ContainerStatus exited = waitForState(id, ContainerState.CONTAINER_EXITED);
        assertEquals(137, exited.getExitCode(), exited.toString());
        assertTrue(took.compareTo(Duration.ofSeconds(2)) >= 0, "stopped after " + took + ", before the grace period");
        assertNotEquals(0, exited.getFinishedAt());
    }
}
