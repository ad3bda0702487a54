package dev.kruisevertx.agent.containermeta;

import dev.kruisevertx.agent.cri.FakeCriServer;
import dev.kruisevertx.agent.cri.GrpcCriClient;
import dev.kruisevertx.api.common.RuntimeContainerMeta;
import dev.kruisevertx.api.common.RuntimeContainerMetaSet;
import dev.kruisevertx.cri.v1.ContainerState;
import dev.kruisevertx.cri.v1.ContainerStatus;
import dev.kruisevertx.cri.v1.ContainerStatusResponse;
import dev.kruisevertx.cri.v1.ExecSyncResponse;
import dev.kruisevertx.cri.v1.RuntimeServiceGrpcService;
import dev.kruisevertx.cri.v1.StopContainerResponse;
import dev.kruisevertx.inplace.EnvFromMetadataHash;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.grpc.common.GrpcStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ContainerMetaAgent} against the embedded API server and a fake CRI runtime that answers ContainerStatus,
 * ExecSync ({@code env}) and StopContainer: what it reports in {@code apps.kruise.io/runtime-containers-meta}, when it
 * stops a container whose env from metadata is stale, and when it does not.
 */
class ContainerMetaAgentTest {
    static final Duration WAIT = Duration.ofSeconds(60);
    static final String NODE = "node-a";
    static final String CONTAINER_ID = "containerd://abc123";
    static final String META = "apps.kruise.io/runtime-containers-meta";

    @TempDir
    Path dir;
    ClusterFixture cluster;
    KubernetesClient client;
    Vertx vertx;
    FakeCriServer runtime;
    GrpcCriClient cri;
    ContainerMetaAgent agent;

    @BeforeEach
    void setUp() {
        cluster = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setAdmission(false));
        client = cluster.client();
        vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    }

    @AfterEach
    void tearDown() throws Exception {
        if (agent != null) {
            await(agent.stop());
        }
        if (cri != null) {
            await(cri.close());
        }
        if (runtime != null) {
            await(runtime.close());
        }
        await(vertx.close());
        cluster.close();
    }

    static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    /** A runtime whose one container runs with {@code env}; ExecSync fails when {@code env} is null. */
    void startRuntime(String env) throws Exception {
        runtime = new FakeCriServer(vertx, dir.resolve("containerd.sock"))
                .answer(RuntimeServiceGrpcService.ContainerStatus, ContainerStatusResponse.newBuilder()
                        .setStatus(ContainerStatus.newBuilder().setId("abc123").setState(ContainerState.CONTAINER_RUNNING)
                                .putAnnotations("io.kubernetes.container.hash", "1f2e3d4c")).build())
                .answer(RuntimeServiceGrpcService.StopContainer, StopContainerResponse.getDefaultInstance());
        if (env == null) {
            runtime.fail(RuntimeServiceGrpcService.ExecSync, GrpcStatus.UNKNOWN, "exec failed");
        } else {
            runtime.answer(RuntimeServiceGrpcService.ExecSync, ExecSyncResponse.newBuilder().setExitCode(0)
                    .setStdout(com.google.protobuf.ByteString.copyFrom(env, StandardCharsets.UTF_8)).build());
        }
        await(runtime.start());
        cri = new GrpcCriClient(vertx, runtime.endpoint(), Duration.ofSeconds(10), null);
        agent = new ContainerMetaAgent(vertx, client, cri, NODE, true, Duration.ofMillis(100), 100, 100);
        await(agent.start());
    }

    /** A pod of a CloneSet on {@link #NODE} whose container takes APP_VERSION from the label {@code version}. */
    Pod createPod(String name, String version) {
        Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").addToLabels("version", version)
                .addNewOwnerReference().withApiVersion("apps.kruise.io/v1alpha1").withKind("CloneSet").withName("cs")
                .withUid("cs-uid").withController(true).endOwnerReference().endMetadata()
                .withNewSpec().withNodeName(NODE).withTerminationGracePeriodSeconds(5L).addNewContainer().withName("main")
                .withImage("nginx:1").addNewEnv().withName("APP_VERSION").withNewValueFrom().withNewFieldRef()
                .withFieldPath("metadata.labels['version']").endFieldRef().endValueFrom().endEnv().endContainer().endSpec()
                .build();
        client.pods().inNamespace("default").resource(pod).create();
        // The kubelet's first status: the agent reports a pod at its status changes, not when merely listed.
        return ConflictRetry.get(() -> client.pods().inNamespace("default").withName(name).editStatus(p -> {
            p.getStatus().setPhase("Running");
            p.getStatus().setContainerStatuses(List.of(new io.fabric8.kubernetes.api.model.ContainerStatusBuilder()
                    .withName("main").withContainerID(CONTAINER_ID).withImage("nginx:1").withReady(true)
                    .withRestartCount(0).withNewState().withNewRunning().endRunning().endState().build()));
            return p;
        }));
    }

    RuntimeContainerMeta reported(String name) {
        Pod pod = Await.waitFor("runtime-containers-meta on " + name, WAIT,
                () -> client.pods().inNamespace("default").withName(name).get(),
                p -> p.getMetadata().getAnnotations() != null && p.getMetadata().getAnnotations().containsKey(META));
        RuntimeContainerMetaSet set = RuntimeContainerMetaSet.readFrom(pod).orElseThrow();
        assertEquals(1, set.getContainers().size());
        return set.getContainers().get(0);
    }

    static long envHash(Pod pod, String version) {
        return EnvFromMetadataHash.expected(pod.getSpec().getContainers().get(0), Map.of("version", version), Map.of());
    }

    void startInPlaceUpdate(String name, String version) {
        ConflictRetry.run(() -> client.pods().inNamespace("default").withName(name).edit(p -> {
            p.getMetadata().getLabels().put("version", version);
            return p;
        }));
        ConflictRetry.run(() -> client.pods().inNamespace("default").withName(name).editStatus(p -> {
            p.getStatus().setConditions(List.of(new PodConditionBuilder().withType("InPlaceUpdateReady")
                    .withStatus("False").build()));
            return p;
        }));
    }

    @Test
    void reportsContainerIdKubeletHashAndTheEnvHashTheContainerRuns() throws Exception {
        startRuntime("HOSTNAME=web-0\nAPP_VERSION=v1\n");
        Pod pod = createPod("web-0", "v1");
        RuntimeContainerMeta meta = reported("web-0");
        assertEquals("main", meta.getName());
        assertEquals(CONTAINER_ID, meta.getContainerID());
        assertEquals(0x1f2e3d4cL, meta.getHashes().getPlainHash());
        assertEquals(envHash(pod, "v1"), meta.getHashes().getExtractedEnvFromMetadataHash());
        assertEquals(0, runtime.calls("StopContainer"));
    }

    @Test
    void stopsTheContainerWhoseEnvIsStaleDuringAnInPlaceUpdate() throws Exception {
        startRuntime("APP_VERSION=v1\n");
        Pod pod = createPod("web-1", "v1");
        reported("web-1");
        startInPlaceUpdate("web-1", "v2");
        // The restarter's first stop comes 3 s after detection.
        Await.waitFor("StopContainer called", WAIT, () -> runtime.calls("StopContainer") >= 1);
        // Still reporting what the container really runs with (v1), not what the pod says.
        assertEquals(envHash(pod, "v1"), reported("web-1").getHashes().getExtractedEnvFromMetadataHash());
    }

    @Test
    void aLabelChangeOutsideAnInPlaceUpdateRestartsNothing() throws Exception {
        startRuntime("APP_VERSION=v1\n");
        createPod("web-2", "v1");
        reported("web-2");
        ConflictRetry.run(() -> client.pods().inNamespace("default").withName("web-2").edit(p -> {
            p.getMetadata().getLabels().put("version", "v2");
            return p;
        }));
        // Well past the restarter's 3 s delay: nothing is stopped.
        Thread.sleep(6000);
        assertEquals(0, runtime.calls("StopContainer"));
    }

    @Test
    void aFailedEnvReadReportsNoEnvHashAndRestartsNothing() throws Exception {
        startRuntime(null);
        createPod("web-3", "v1");
        RuntimeContainerMeta meta = reported("web-3");
        assertEquals(CONTAINER_ID, meta.getContainerID());
        assertEquals(0L, meta.getHashes().getExtractedEnvFromMetadataHash());
        startInPlaceUpdate("web-3", "v2");
        Await.waitFor("ExecSync retried", WAIT, () -> runtime.calls("ExecSync") >= 2);
        assertEquals(0, runtime.calls("StopContainer"));
        assertTrue(runtime.calls("ContainerStatus") >= 1);
    }
}
