package dev.kruisevertx.agent.cri;

import dev.kruisevertx.cri.v1.ImageServiceGrpcService;
import dev.kruisevertx.cri.v1.ListImagesResponse;
import dev.kruisevertx.cri.v1.RuntimeServiceGrpcService;
import dev.kruisevertx.cri.v1.VersionResponse;
import io.vertx.core.Vertx;
import io.vertx.grpc.common.GrpcStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static dev.kruisevertx.agent.cri.RealRuntime.assertContains;
import static dev.kruisevertx.agent.cri.RealRuntime.await;
import static dev.kruisevertx.agent.cri.RealRuntime.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RuntimeDiscoveryTest {
    @TempDir
    Path root;
    Vertx vertx;

    @BeforeEach
    void setUp() {
        vertx = RealRuntime.nativeVertx();
    }

    @AfterEach
    void tearDown() {
        await(vertx.close());
    }

    private RuntimeDiscovery discovery() {
        return new RuntimeDiscovery(vertx, root, Duration.ofSeconds(2));
    }

    private Path deadSocket(String name) throws Exception {
        Path socket = root.resolve(name);
        Files.createDirectories(socket.getParent());
        try (ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.bind(UnixDomainSocketAddress.of(socket));
        }
        return socket;
    }

    private FakeCriServer runtime(String name, String runtimeName) throws Exception {
        Path socket = root.resolve(name);
        Files.createDirectories(socket.getParent());
        return await(new FakeCriServer(vertx, socket)
                .answer(RuntimeServiceGrpcService.Version, VersionResponse.newBuilder()
                        .setVersion("0.1.0").setRuntimeName(runtimeName).setRuntimeVersion("9.9").setRuntimeApiVersion("v1").build())
                .answer(ImageServiceGrpcService.ListImages, ListImagesResponse.getDefaultInstance())
                .start());
    }

    @Test
    void candidatesAreOpenKruisesInItsOrder() {
        assertEquals(java.util.List.of("containerd.sock", "containerd/containerd.sock", "crio.sock", "crio/crio.sock",
                "cri-dockerd.sock", "cri-dockerd/cri-dockerd.sock"), RuntimeDiscovery.CANDIDATES);
        assertEquals(Path.of("/hostvarrun"), RuntimeDiscovery.DEFAULT_ROOT);
    }

    @Test
    void skipsADeadSocketAndPicksTheLiveOne() throws Exception {
        deadSocket("containerd/containerd.sock");
        runtime("crio/crio.sock", "cri-o");

        DiscoveredRuntime found = await(discovery().discover(null));

        assertEquals(root.resolve("crio/crio.sock"), found.endpoint().socket());
        assertEquals("cri-o", found.version().getRuntimeName());
    }

    @Test
    void firstLiveCandidateWins() throws Exception {
        runtime("containerd/containerd.sock", "containerd");
        runtime("cri-dockerd.sock", "docker");

        assertEquals("containerd", await(discovery().discover(null)).version().getRuntimeName());
    }

    @Test
    void aSocketAnsweringVersionButNotListImagesDoesNotCount() throws Exception {
        Path socket = root.resolve("containerd.sock");
        await(new FakeCriServer(vertx, socket)
                .answer(RuntimeServiceGrpcService.Version, VersionResponse.newBuilder().setRuntimeName("half").build())
                .start());
        runtime("cri-dockerd/cri-dockerd.sock", "docker");

        assertEquals("docker", await(discovery().discover(null)).version().getRuntimeName());
    }

    @Test
    void nothingAliveFailsListingWhyEachCandidateWasRefused() throws Exception {
        deadSocket("containerd.sock");

        CriException e = (CriException) failure(discovery().discover(null));

        assertEquals(GrpcStatus.UNAVAILABLE, e.status());
        assertEquals(root, e.endpoint().socket());
        assertContains(e.getMessage(), "no CRI runtime answers under " + root,
                "containerd.sock: UNAVAILABLE nothing listens", "crio/crio.sock: no socket file");
    }

    @Test
    void configuredEndpointIsTheOnlyOneTried() throws Exception {
        runtime("containerd.sock", "containerd");
        FakeCriServer other = runtime("custom/runtime.sock", "custom");

        DiscoveredRuntime byPath = await(discovery().discover(other.endpoint().toString()));
        DiscoveredRuntime relative = await(discovery().discover("custom/runtime.sock"));

        assertEquals("custom", byPath.version().getRuntimeName());
        assertEquals(root.resolve("custom/runtime.sock"), relative.endpoint().socket());
        CriException e = (CriException) failure(discovery().discover("missing.sock"));
        assertContains(e.getMessage(), root.resolve("missing.sock").toString(), "no socket file");
    }

    @Test
    void malformedEndpointIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> discovery().resolve("tcp://127.0.0.1:1234"));
        assertEquals(Path.of("/run/x.sock"), discovery().resolve("unix:///run/x.sock").socket());
        assertEquals(root.resolve("a/b.sock"), discovery().resolve("a/b.sock").socket());
    }

    @Test
    void findsTheRealContainerdBesideADeadSocket() throws Exception {
        CriEndpoint real = RealRuntime.endpoint();
        deadSocket("containerd.sock");
        Files.createDirectories(root.resolve("containerd"));
        // The agent sees the host's /var/run through a mount; a symlink gives the same view here.
        Files.createSymbolicLink(root.resolve("containerd/containerd.sock"), real.socket());

        DiscoveredRuntime found = await(discovery().discover(null));

        assertEquals(root.resolve("containerd/containerd.sock"), found.endpoint().socket());
        assertEquals("containerd", found.version().getRuntimeName());
    }
}
