package dev.kruisevertx.podreadiness;

import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.ManagerSettings;
import dev.kruisevertx.controller.PlanRecorder;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.kube.KubeExecutor;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.sim.testing.FixedCache;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The podreadiness reconcile against fabric8's mock API server (CRUD mode). */
class PodReadinessControllerTest {
    /** CRUD storage that answers the first {@code n} status writes with 409, as after another writer's update. */
    static final class ConflictingStatusWrites extends KubernetesCrudDispatcher {
        final AtomicInteger conflictsLeft = new AtomicInteger();
        final AtomicInteger conflictsSent = new AtomicInteger();

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            boolean write = "PUT".equals(request.getMethod()) || "PATCH".equals(request.getMethod());
            if (write && request.getPath().contains("/status") && conflictsLeft.getAndDecrement() > 0) {
                conflictsSent.incrementAndGet();
                return new MockResponse().setResponseCode(409).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                        + "\"status\":\"Failure\",\"reason\":\"Conflict\",\"code\":409,\"message\":"
                        + "\"Operation cannot be fulfilled on pods \\\"p\\\": the object has been modified\"}");
            }
            return super.dispatch(request);
        }
    }

    private final ConflictingStatusWrites dispatcher = new ConflictingStatusWrites();
    private KubernetesMockServer server;
    private KubernetesClient client;
    private Vertx vertx;
    private KubeExecutor kube;

    @BeforeEach
    void setUp() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init();
        client = KubeClients.forTest(server.createClient().getConfiguration());
        vertx = Vertx.vertx();
        kube = new KubeExecutor(vertx, "test-kube", 2);
    }

    @AfterEach
    void tearDown() throws Exception {
        kube.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        client.close();
        server.destroy();
    }

    private Pod gatedPod(String name) {
        return client.pods().inNamespace("ns").resource(new PodBuilder().withNewMetadata().withName(name)
                .withNamespace("ns").endMetadata().withNewSpec().addNewReadinessGate()
                .withConditionType(PodReadinessDecision.KRUISE_POD_READY).endReadinessGate()
                .addNewContainer().withName("c").withImage("i").endContainer().endSpec().build()).create();
    }

    private Result reconcile(Pod cached) throws Exception {
        ControllerContext ctx = new ControllerContext(vertx, null, client, kube, FeatureGates.defaults(),
                new SimpleMeterRegistry(), new PlanRecorder(), ManagerSettings.defaults());
        return PodReadinessController.reconciler(ctx, FixedCache.of(cached)).reconcile(Request.of(cached))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void aConflictingStatusWriteIsRetriedNotAFailedReconcile() throws Exception {
        Pod cached = gatedPod("p");
        dispatcher.conflictsLeft.set(1);

        assertEquals(Result.done(), reconcile(cached));

        assertEquals(1, dispatcher.conflictsSent.get(), "the 409 was forced");
        Pod live = client.pods().inNamespace("ns").withName("p").get();
        assertTrue(Pods.conditionTrue(live, PodReadinessDecision.KRUISE_POD_READY), "condition written after the 409");
    }

    /**
     * On the embedded API server, which (as kube-apiserver) refuses a status write carrying an old resourceVersion:
     * the status the kubelet wrote after the cache's copy is kept.
     */
    @Test
    void aStaleCachedPodIsReReadAndTheOtherWritersStatusKept() throws Exception {
        try (ClusterFixture cluster = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setAdmission(false))) {
            KubernetesClient sim = cluster.client();
            Pod cached = sim.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("q")
                    .endMetadata().withNewSpec().addNewReadinessGate()
                    .withConditionType(PodReadinessDecision.KRUISE_POD_READY).endReadinessGate()
                    .addNewContainer().withName("c").withImage("i").endContainer().endSpec().build()).create();
            sim.pods().inNamespace("default").resource(new PodBuilder(cached).editOrNewStatus().withPhase("Running")
                    .endStatus().build()).updateStatus();

            ControllerContext ctx = new ControllerContext(vertx, null, sim, kube, FeatureGates.defaults(),
                    new SimpleMeterRegistry(), new PlanRecorder(), ManagerSettings.defaults());
            assertEquals(Result.done(), PodReadinessController.reconciler(ctx, FixedCache.of(cached))
                    .reconcile(Request.of(cached)).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));

            Pod after = sim.pods().inNamespace("default").withName("q").get();
            assertEquals("Running", after.getStatus().getPhase());
            assertTrue(Pods.conditionTrue(after, PodReadinessDecision.KRUISE_POD_READY));
        }
    }

    @Test
    void aPodGoneBeforeTheWriteIsDone() throws Exception {
        Pod cached = gatedPod("r");
        client.pods().inNamespace("ns").withName("r").delete();
        assertEquals(Result.done(), reconcile(cached));
    }
}
