package dev.kruisevertx.agent.cri;

import dev.kruisevertx.cri.v1.ContainerFilter;
import dev.kruisevertx.cri.v1.Image;
import dev.kruisevertx.cri.v1.ImageFilter;
import dev.kruisevertx.cri.v1.ImageFsInfoResponse;
import dev.kruisevertx.cri.v1.ImageSpec;
import dev.kruisevertx.cri.v1.RuntimeCondition;
import dev.kruisevertx.cri.v1.StatusResponse;
import dev.kruisevertx.cri.v1.VersionResponse;
import io.vertx.core.Vertx;
import io.vertx.grpc.common.GrpcStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static dev.kruisevertx.agent.cri.RealRuntime.assertContains;
import static dev.kruisevertx.agent.cri.RealRuntime.await;
import static dev.kruisevertx.agent.cri.RealRuntime.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every client call against the real containerd from cri-setup.sh, including its error answers. */
class GrpcCriClientTest {
    static Vertx vertx;
    static GrpcCriClient client;
    static String image;

    @BeforeAll
    static void connect() {
        // Skipping (or failing, in CI) happens per test in requireRuntime(), so each test reports it.
        CriEndpoint endpoint = RealRuntime.endpointIfPresent();
        if (endpoint == null) {
            return;
        }
        vertx = RealRuntime.nativeVertx();
        client = new GrpcCriClient(vertx, endpoint, Duration.ofSeconds(60), null);
        image = RealRuntime.busyboxImage();
    }

    @AfterAll
    static void close() {
        if (vertx != null) {
            await(client.close());
            await(vertx.close());
        }
    }

    @BeforeEach
    void requireRuntime() {
        RealRuntime.endpoint();
    }

    @Test
    void versionNamesTheRuntimeAndApi() {
        VersionResponse v = await(client.version());
        assertEquals("containerd", v.getRuntimeName());
        assertEquals("v1", v.getRuntimeApiVersion());
        assertFalse(v.getRuntimeVersion().isEmpty());
    }

    @Test
    void statusReportsTheRuntimeReady() {
        StatusResponse status = await(client.status());
        Optional<RuntimeCondition> ready = status.getStatus().getConditionsList().stream()
                .filter(c -> c.getType().equals("RuntimeReady")).findFirst();
        assertTrue(ready.isPresent(), status.toString());
        assertTrue(ready.get().getStatus(), ready.get().toString());
    }

    @Test
    void pulledImageIsListedAndHasAStatus() {
        String ref = await(client.pullImage(image, null, null, Duration.ofMinutes(2)));
        assertTrue(ref.startsWith("sha256:"), ref);

        Image status = await(client.imageStatus(image)).orElseThrow();
        assertEquals(ref, status.getId());
        assertTrue(status.getRepoTagsList().contains(image), status.getRepoTagsList().toString());
        assertTrue(status.getSize() > 0);

        List<Image> all = await(client.listImages(null));
        assertTrue(all.stream().anyMatch(i -> i.getId().equals(ref)), all.toString());
        // containerd 1.6 ignores the filter and lists everything; the request must still be accepted.
        List<Image> filtered = await(client.listImages(ImageFilter.newBuilder()
                .setImage(ImageSpec.newBuilder().setImage(image)).build()));
        assertTrue(filtered.stream().anyMatch(i -> i.getId().equals(ref)), filtered.toString());
    }

    @Test
    void absentImageHasNoStatusWithoutAnError() {
        Optional<Image> status = await(client.imageStatus("127.0.0.1:5000/test/never-pushed:" + UUID.randomUUID()));
        assertTrue(status.isEmpty());
    }

    @Test
    void pullingAMissingTagIsNotFound() {
        String missing = "127.0.0.1:5000/test/busybox:no-such-tag";
        CriException e = (CriException) failure(client.pullImage(missing, null, null, Duration.ofMinutes(2)));
        assertEquals(GrpcStatus.NOT_FOUND, e.status());
        assertEquals("ImageService/PullImage", e.call());
        assertContains(e.detail(), missing);
        assertFalse(e.isRetryable());
    }

    @Test
    void imageFilesystemIsReported() {
        ImageFsInfoResponse info = await(client.imageFsInfo());
        assertFalse(info.getImageFilesystemsList().isEmpty(), info.toString());
        assertFalse(info.getImageFilesystems(0).getFsId().getMountpoint().isEmpty(), info.toString());
    }

    @Test
    void listingContainersOfAnUnknownSandboxIsEmpty() {
        assertTrue(await(client.listContainers(ContainerFilter.newBuilder()
                .setPodSandboxId("no-such-sandbox-" + UUID.randomUUID()).build())).isEmpty());
    }

    @Test
    void unknownContainerIsNotFoundForEveryContainerCall() {
        String id = "deadbeef" + UUID.randomUUID().toString().replace("-", "");
        CriException status = (CriException) failure(client.containerStatus(id));
        CriException stop = (CriException) failure(client.stopContainer(id, Duration.ofSeconds(1)));
        CriException exec = (CriException) failure(client.execSync(id, List.of("true"), Duration.ofSeconds(5)));

        for (CriException e : List.of(status, stop, exec)) {
            assertTrue(e.isNotFound(), e.getMessage());
            assertFalse(e.isRetryable());
            assertContains(e.getMessage(), "unix://", id);
        }
        assertEquals("RuntimeService/ContainerStatus", status.call());
        assertEquals("RuntimeService/StopContainer", stop.call());
        assertEquals("RuntimeService/ExecSync", exec.call());
    }
}
