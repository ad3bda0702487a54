package dev.kruisevertx.sim.cri;

import dev.kruisevertx.cri.v1.ContainerFilter;
import dev.kruisevertx.cri.v1.ContainerState;
import dev.kruisevertx.cri.v1.ContainerStateValue;
import dev.kruisevertx.cri.v1.ContainerStatus;
import dev.kruisevertx.cri.v1.ContainerStatusRequest;
import dev.kruisevertx.cri.v1.ExecSyncRequest;
import dev.kruisevertx.cri.v1.ImageFilter;
import dev.kruisevertx.cri.v1.ImageFsInfoRequest;
import dev.kruisevertx.cri.v1.ImageServiceGrpcClient;
import dev.kruisevertx.cri.v1.ImageSpec;
import dev.kruisevertx.cri.v1.ImageStatusRequest;
import dev.kruisevertx.cri.v1.ListContainersRequest;
import dev.kruisevertx.cri.v1.ListImagesRequest;
import dev.kruisevertx.cri.v1.PullImageRequest;
import dev.kruisevertx.cri.v1.RunPodSandboxRequest;
import dev.kruisevertx.cri.v1.RuntimeServiceGrpcClient;
import dev.kruisevertx.cri.v1.StopContainerRequest;
import dev.kruisevertx.cri.v1.VersionRequest;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.nodes.ContainerFailure;
import dev.kruisevertx.sim.nodes.ExecRecord;
import dev.kruisevertx.sim.nodes.ImageRule;
import dev.kruisevertx.sim.nodes.SimContainer;
import dev.kruisevertx.sim.nodes.SimNodesOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.InvalidStatusException;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.client.GrpcClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The simulated nodes' CRI servers, called over gRPC on their unix sockets as a node agent calls containerd. */
class SimCriServerTest {
    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static ClusterFixture fixture;
    static KubernetesClient client;
    static GrpcClient grpc;

    @BeforeAll
    static void start() {
        SimNodesOptions nodes = new SimNodesOptions()
                .addImageRule(new ImageRule("missing/*", Duration.ZERO, ContainerFailure.IMAGE_PULL_ERROR))
                .addImageRule(new ImageRule("*:unstoppable", Duration.ZERO, ContainerFailure.STOP_ERROR))
                .setContainerRestartDelay(Duration.ofMillis(500));
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(2).setNodeOptions(nodes).setCriServers(true));
        client = fixture.client();
        grpc = GrpcClient.client(fixture.vertx(), new GrpcClientOptions(),
                new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false));
    }

    @AfterAll
    static void stop() throws Exception {
        grpc.close().await(10, TimeUnit.SECONDS);
        fixture.close();
    }

    static SocketAddress socketOf(String node) {
        return SocketAddress.domainSocketAddress(fixture.cluster().criServers().server(node).socket().toString());
    }

    static RuntimeServiceGrpcClient runtime(String node) {
        return RuntimeServiceGrpcClient.create(grpc, socketOf(node));
    }

    static <T> T await(Future<T> f) throws Exception {
        return f.await(20, TimeUnit.SECONDS);
    }

    static Pod runningPod(String name, String image) {
        client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage(image).endContainer().endSpec().build()).create();
        return Await.waitFor("pod " + name + " running", TIMEOUT,
                () -> client.pods().inNamespace("default").withName(name).get(),
                p -> p != null && p.getStatus() != null && p.getStatus().getContainerStatuses() != null
                        && p.getStatus().getContainerStatuses().stream().anyMatch(c -> Boolean.TRUE.equals(c.getReady())));
    }

    static String runtimeId(String containerId) {
        return containerId.substring(containerId.indexOf("://") + 3);
    }

    @Test
    void everyNodeServesTheCriOnItsOwnSocket() throws Exception {
        for (String node : fixture.cluster().nodes().nodeNames()) {
            assertTrue(Files.exists(fixture.cluster().criServers().server(node).socket()), node);
            var version = await(runtime(node).version(VersionRequest.newBuilder().setVersion("0.1.0").build()));
            assertEquals("containerd", version.getRuntimeName());
            assertEquals("v1", version.getRuntimeApiVersion());
        }
    }

    @Test
    void stopContainerMakesTheKubeletStartANewOne() throws Exception {
        Pod pod = runningPod("cri-stop", "nginx:1.25");
        String node = pod.getSpec().getNodeName();
        var before = pod.getStatus().getContainerStatuses().get(0);
        String oldId = runtimeId(before.getContainerID());

        // The runtime lists the pod's container with the kubelet's labels; other nodes do not see it.
        var listed = await(runtime(node).listContainers(ListContainersRequest.newBuilder().setFilter(ContainerFilter.newBuilder()
                .putLabelSelector(SimContainer.POD_NAME_LABEL, "cri-stop")).build())).getContainersList();
        assertEquals(1, listed.size());
        assertEquals(oldId, listed.get(0).getId());
        assertEquals("main", listed.get(0).getMetadata().getName());
        assertEquals(ContainerState.CONTAINER_RUNNING, listed.get(0).getState());
        for (String other : fixture.cluster().nodes().nodeNames()) {
            if (!other.equals(node)) {
                assertTrue(await(runtime(other).listContainers(ListContainersRequest.getDefaultInstance())).getContainersList()
                        .stream().noneMatch(c -> c.getId().equals(oldId)), other);
            }
        }

        // The preStop hook's exec is recorded; then the stop.
        var exec = await(runtime(node).execSync(ExecSyncRequest.newBuilder().setContainerId(oldId)
                .addCmd("/bin/sh").addCmd("-c").addCmd("nginx -s quit").setTimeout(5).build()));
        assertEquals(0, exec.getExitCode());
        ExecRecord recorded = fixture.cluster().nodes().execs().stream().filter(e -> e.containerId().equals(oldId))
                .findFirst().orElseThrow();
        assertEquals(List.of("/bin/sh", "-c", "nginx -s quit"), recorded.command());
        assertEquals("cri-stop", recorded.podName());

        await(runtime(node).stopContainer(StopContainerRequest.newBuilder().setContainerId(oldId).setTimeout(30).build()));
        ContainerStatus old = await(runtime(node).containerStatus(ContainerStatusRequest.newBuilder().setContainerId(oldId).build()))
                .getStatus();
        assertEquals(ContainerState.CONTAINER_EXITED, old.getState());
        assertTrue(old.getFinishedAt() > 0);

        Pod after = Await.waitFor("a new container in pod cri-stop", TIMEOUT,
                () -> client.pods().inNamespace("default").withName("cri-stop").get(),
                p -> {
                    var s = p.getStatus().getContainerStatuses().get(0);
                    return !s.getContainerID().equals(before.getContainerID()) && Boolean.TRUE.equals(s.getReady());
                });
        var now = after.getStatus().getContainerStatuses().get(0);
        assertEquals(before.getRestartCount() + 1, now.getRestartCount());
        assertEquals(before.getContainerID(), now.getLastState().getTerminated().getContainerID());
        String newId = runtimeId(now.getContainerID());
        ContainerStatus fresh = await(runtime(node).containerStatus(ContainerStatusRequest.newBuilder().setContainerId(newId).build()))
                .getStatus();
        assertEquals(ContainerState.CONTAINER_RUNNING, fresh.getState());
        assertEquals(1, fresh.getMetadata().getAttempt());
        var running = await(runtime(node).listContainers(ListContainersRequest.newBuilder().setFilter(ContainerFilter.newBuilder()
                .setState(ContainerStateValue.newBuilder().setState(ContainerState.CONTAINER_RUNNING))
                .putLabelSelector(SimContainer.POD_NAME_LABEL, "cri-stop")).build())).getContainersList();
        assertEquals(List.of(newId), running.stream().map(c -> c.getId()).toList());

        // Stopping the exited one again is a no-op, as the CRI requires.
        await(runtime(node).stopContainer(StopContainerRequest.newBuilder().setContainerId(oldId).build()));
        // Exec in an exited container is refused.
        GrpcStatus refused = failure(runtime(node).execSync(ExecSyncRequest.newBuilder().setContainerId(oldId)
                .addCmd("true").build()));
        assertEquals(GrpcStatus.UNKNOWN, refused);
        assertEquals(after.getStatus().getContainerStatuses().get(0).getRestartCount(),
                client.pods().inNamespace("default").withName("cri-stop").get().getStatus().getContainerStatuses().get(0).getRestartCount());
    }

    @Test
    void unknownContainersAreNotFoundAndCreationIsTheKubeletsBusiness() throws Exception {
        String node = fixture.cluster().nodes().nodeNames().get(0);
        assertEquals(GrpcStatus.NOT_FOUND, failure(runtime(node).containerStatus(
                ContainerStatusRequest.newBuilder().setContainerId("0123456789abcdef").build())));
        assertEquals(GrpcStatus.NOT_FOUND, failure(runtime(node).stopContainer(
                StopContainerRequest.newBuilder().setContainerId("0123456789abcdef").build())));
        assertEquals(GrpcStatus.NOT_FOUND, failure(runtime(node).execSync(
                ExecSyncRequest.newBuilder().setContainerId("0123456789abcdef").addCmd("true").build())));
        assertEquals(GrpcStatus.UNIMPLEMENTED, failure(runtime(node).runPodSandbox(RunPodSandboxRequest.getDefaultInstance())));
    }

    @Test
    void aContainerTheRuntimeCannotStopKeepsRunning() throws Exception {
        Pod pod = runningPod("cri-unstoppable", "app:unstoppable");
        String node = pod.getSpec().getNodeName();
        String id = runtimeId(pod.getStatus().getContainerStatuses().get(0).getContainerID());
        assertEquals(GrpcStatus.UNKNOWN, failure(runtime(node).stopContainer(
                StopContainerRequest.newBuilder().setContainerId(id).build())));
        assertEquals(ContainerState.CONTAINER_RUNNING, await(runtime(node).containerStatus(
                ContainerStatusRequest.newBuilder().setContainerId(id).build())).getStatus().getState());
    }

    @Test
    void imagesArePulledListedAndReported() throws Exception {
        String node = fixture.cluster().nodes().nodeNames().get(1);
        ImageServiceGrpcClient images = ImageServiceGrpcClient.create(grpc, socketOf(node));
        String ref = await(images.pullImage(PullImageRequest.newBuilder().setImage(ImageSpec.newBuilder().setImage("busybox:1.36")).build()))
                .getImageRef();
        assertTrue(ref.startsWith("docker.io/library/busybox@sha256:"), ref);
        var status = await(images.imageStatus(ImageStatusRequest.newBuilder().setImage(ImageSpec.newBuilder()
                .setImage("docker.io/library/busybox:1.36")).build()));
        assertTrue(status.hasImage());
        assertEquals(List.of("docker.io/library/busybox:1.36"), status.getImage().getRepoTagsList());
        assertFalse(await(images.imageStatus(ImageStatusRequest.newBuilder().setImage(ImageSpec.newBuilder()
                .setImage("nothing:here")).build())).hasImage());
        assertEquals(1, await(images.listImages(ListImagesRequest.newBuilder().setFilter(ImageFilter.newBuilder()
                .setImage(ImageSpec.newBuilder().setImage("busybox:1.36"))).build())).getImagesCount());
        assertTrue(await(images.imageFsInfo(ImageFsInfoRequest.getDefaultInstance())).getImageFilesystems(0)
                .getUsedBytes().getValue() > 0);
        assertEquals(GrpcStatus.NOT_FOUND, failure(images.pullImage(PullImageRequest.newBuilder()
                .setImage(ImageSpec.newBuilder().setImage("missing/app:1")).build())));
    }

    @Test
    void imageNamesAreNormalizedAsARuntimeDoes() {
        assertEquals("docker.io/library/nginx:latest", SimCriServer.normalize("nginx"));
        assertEquals("docker.io/library/nginx:1.25", SimCriServer.normalize("nginx:1.25"));
        assertEquals("docker.io/bitnami/redis:7", SimCriServer.normalize("bitnami/redis:7"));
        assertEquals("registry.local:5000/app:1", SimCriServer.normalize("registry.local:5000/app:1"));
        assertEquals("ghcr.io/x/y@sha256:ab", SimCriServer.normalize("ghcr.io/x/y@sha256:ab"));
    }

    /** The gRPC status a call failed with. */
    static GrpcStatus failure(Future<?> call) {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> call.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof InvalidStatusException, String.valueOf(e.getCause()));
        return ((InvalidStatusException) e.getCause()).actualStatus();
    }

}
