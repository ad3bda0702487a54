package dev.kruisevertx.agent.cri;

import dev.kruisevertx.cri.v1.ImageServiceGrpcService;
import dev.kruisevertx.cri.v1.ListImagesResponse;
import dev.kruisevertx.cri.v1.RuntimeServiceGrpcService;
import dev.kruisevertx.cri.v1.VersionResponse;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.grpc.common.GrpcStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.time.Duration;

import static dev.kruisevertx.agent.cri.RealRuntime.await;
import static dev.kruisevertx.agent.cri.RealRuntime.failure;
import static dev.kruisevertx.agent.cri.RealRuntime.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the client reports a runtime that is missing, dead, hung or answering with an error. No real runtime needed. */
class CriFailureTest {
    @TempDir
    Path dir;
    Vertx vertx;

    @BeforeEach
    void setUp() {
        vertx = RealRuntime.nativeVertx();
    }

    @AfterEach
    void tearDown() {
        await(vertx.close());
    }

    @Test
    void missingSocketIsUnavailableAndSaysSo() {
        Path socket = dir.resolve("absent.sock");
        GrpcCriClient client = new GrpcCriClient(vertx, new CriEndpoint(socket), Duration.ofSeconds(5), null);

        CriException e = (CriException) failure(client.version());

        assertEquals(GrpcStatus.UNAVAILABLE, e.status());
        assertTrue(e.isRetryable());
        assertEquals("RuntimeService/Version", e.call());
        assertEquals(socket, e.endpoint().socket());
        assertContains(e.getMessage(), "RuntimeService/Version", "unix://" + socket, "does not exist");
    }

    @Test
    void socketWithoutListenerIsUnavailable() throws Exception {
        Path socket = dir.resolve("dead.sock");
        // Binding then closing leaves the socket file behind with nobody listening, like a crashed runtime.
        try (ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.bind(UnixDomainSocketAddress.of(socket));
        }
        GrpcCriClient client = new GrpcCriClient(vertx, new CriEndpoint(socket), Duration.ofSeconds(5), null);

        CriException e = (CriException) failure(client.listImages(null));

        assertEquals(GrpcStatus.UNAVAILABLE, e.status());
        assertEquals("ImageService/ListImages", e.call());
        assertContains(e.detail(), "nothing listens");
    }

    @Test
    void runtimeThatNeverAnswersHitsTheDeadline() throws Exception {
        FakeCriServer server = await(new FakeCriServer(vertx, dir.resolve("hung.sock"))
                .hang(RuntimeServiceGrpcService.Version).start());
        GrpcCriClient client = new GrpcCriClient(vertx, server.endpoint(), Duration.ofMillis(500), null);

        CriException e = (CriException) failure(client.version());

        assertEquals(GrpcStatus.DEADLINE_EXCEEDED, e.status());
        assertTrue(e.isRetryable());
        assertContains(e.detail(), "500 ms");
        assertEquals(1, server.calls());
    }

    @Test
    void socketThatAcceptsButNeverSpeaksHttp2HitsTheDeadline() throws Exception {
        Path socket = dir.resolve("silent.sock");
        try (ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.bind(UnixDomainSocketAddress.of(socket));
            GrpcCriClient client = new GrpcCriClient(vertx, new CriEndpoint(socket), Duration.ofMillis(500), null);

            CriException e = (CriException) failure(client.imageFsInfo());

            assertEquals(GrpcStatus.DEADLINE_EXCEEDED, e.status());
            assertEquals("ImageService/ImageFsInfo", e.call());
        }
    }

    @Test
    void runtimeErrorKeepsItsStatusAndMessage() {
        FakeCriServer server = await(new FakeCriServer(vertx, dir.resolve("busy.sock"))
                .fail(RuntimeServiceGrpcService.StopContainer, GrpcStatus.RESOURCE_EXHAUSTED, "too many stops")
                .fail(RuntimeServiceGrpcService.ContainerStatus, GrpcStatus.INVALID_ARGUMENT, "bad id").start());
        GrpcCriClient client = new GrpcCriClient(vertx, server.endpoint(), Duration.ofSeconds(5), null);

        CriException busy = (CriException) failure(client.stopContainer("c1", Duration.ofSeconds(1)));
        CriException bad = (CriException) failure(client.containerStatus("c1"));

        assertEquals(GrpcStatus.RESOURCE_EXHAUSTED, busy.status());
        assertEquals("too many stops", busy.detail());
        assertTrue(busy.isRetryable());
        assertEquals(GrpcStatus.INVALID_ARGUMENT, bad.status());
        assertFalse(bad.isRetryable());
        assertEquals("CRI RuntimeService/ContainerStatus on " + server.endpoint() + " failed: INVALID_ARGUMENT: bad id", bad.getMessage());
    }

    @Test
    void methodTheRuntimeLacksIsUnimplemented() {
        FakeCriServer server = await(new FakeCriServer(vertx, dir.resolve("old.sock"))
                .answer(RuntimeServiceGrpcService.Version, VersionResponse.newBuilder().setRuntimeName("fake").build())
                .start());
        GrpcCriClient client = new GrpcCriClient(vertx, server.endpoint(), Duration.ofSeconds(5), null);

        assertEquals("fake", await(client.version()).getRuntimeName());
        CriException e = (CriException) failure(client.listImages(null));
        assertEquals(GrpcStatus.UNIMPLEMENTED, e.status());
    }

    @Test
    void callsAreTimedByMethodAndStatus() {
        FakeCriServer server = await(new FakeCriServer(vertx, dir.resolve("metrics.sock"))
                .answer(ImageServiceGrpcService.ListImages, ListImagesResponse.getDefaultInstance())
                .fail(RuntimeServiceGrpcService.ContainerStatus, GrpcStatus.NOT_FOUND, "no such container")
                .start());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        GrpcCriClient client = new GrpcCriClient(vertx, server.endpoint(), Duration.ofSeconds(5), registry);

        await(client.listImages(null));
        await(client.listImages(null));
        failure(client.containerStatus("x"));

        assertEquals(2, registry.get("kruise.agent.cri.requests").tags("method", "ImageService/ListImages", "code", "OK")
                .timer().count());
        assertEquals(1, registry.get("kruise.agent.cri.requests").tags("method", "RuntimeService/ContainerStatus", "code", "NOT_FOUND")
                .timer().count());
    }

    @Test
    void withoutNativeTransportTheErrorSaysWhatIsMissing() {
        Vertx plain = Vertx.vertx();
        try {
            GrpcCriClient client = new GrpcCriClient(plain, new CriEndpoint(dir.resolve("x.sock")), Duration.ofSeconds(5), null);
            CriException e = (CriException) failure(client.version());
            assertEquals(GrpcStatus.UNAVAILABLE, e.status());
            assertContains(e.detail(), "native transport");
        } finally {
            await(plain.close());
        }
    }

    @Test
    void clientRecoversWhenTheRuntimeComesBack() {
        Path socket = dir.resolve("restarting.sock");
        VersionResponse v1 = VersionResponse.newBuilder().setRuntimeName("first").build();
        FakeCriServer first = await(new FakeCriServer(vertx, socket).answer(RuntimeServiceGrpcService.Version, v1).start());
        GrpcCriClient client = new GrpcCriClient(vertx, first.endpoint(), Duration.ofSeconds(5), null);
        assertEquals("first", await(client.version()).getRuntimeName());

        await(first.close());
        CriException down = (CriException) failure(client.version());
        assertEquals(GrpcStatus.UNAVAILABLE, down.status(), down.getMessage());
        assertTrue(CriException.retryable(down));

        // The restarted runtime binds the same path; the same client object reconnects on its next call.
        VersionResponse v2 = VersionResponse.newBuilder().setRuntimeName("second").build();
        await(new FakeCriServer(vertx, socket).answer(RuntimeServiceGrpcService.Version, v2).start());
        assertEquals("second", await(client.version()).getRuntimeName());
    }
}
