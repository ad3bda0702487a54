package dev.kruisevertx.cloneset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.StalePlanException;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleAction;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.kube.KubeExecutor;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.api.Admission;
import dev.kruisevertx.sim.api.AdmissionAttributes;
import dev.kruisevertx.sim.api.ApiException;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The act step's pod creation against the embedded API server: slow-start batches stop at the first failing batch,
 * and no batch starts once the CloneSet is gone, replaced, being deleted or changed. Pods never sent leave no
 * expectation behind.
 */
class CloneSetActuatorTest {
    static final String NS = "default";
    static ClusterFixture cluster;
    static KubernetesClient client;
    static Vertx vertx;
    static KubeExecutor kube;

    /** Pod creations the API server was asked for, in arrival order, and which of them it refuses. */
    final AtomicInteger podCreates = new AtomicInteger();
    volatile IntPredicate refuse = n -> false;
    final ScaleExpectations scale = new ScaleExpectations(Duration.ofMinutes(5), Clock.systemUTC(),
            new SimpleMeterRegistry(), "test_scale_expectation_leakage");

    @BeforeAll
    static void start() {
        // No nodes: pods stay Pending, nothing else writes them.
        cluster = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setAdmission(false)
                .setCrdDirectory(ClusterFixture.findCrdDirectory()));
        client = KubeClients.forTest(new io.fabric8.kubernetes.client.ConfigBuilder(cluster.cluster().clientConfig())
                .withHttp2Disable(true).build());
        vertx = Vertx.vertx();
        kube = new KubeExecutor(vertx, "actuator-test-kube", 8);
    }

    @AfterAll
    static void stop() throws Exception {
        kube.close();
        vertx.close().await(30, TimeUnit.SECONDS);
        client.close();
        cluster.close();
    }

    @AfterEach
    void noAdmission() {
        cluster.cluster().apiServer().setAdmission(Admission.NONE);
    }

    /** Counts pod creations and refuses those {@link #refuse} names (403, as a quota or a webhook would). */
    void countPodCreates() {
        countPodCreates(403, "Forbidden");
    }

    void countPodCreates(int code, String reason) {
        cluster.cluster().apiServer().setAdmission(new Admission() {
            @Override
            public Future<ObjectNode> mutate(AdmissionAttributes a) {
                return Future.succeededFuture(a.object());
            }

            @Override
            public Future<Void> validate(AdmissionAttributes a) {
                if (a.type().kind().equals("Pod") && a.operation().equals("CREATE")) {
                    int n = podCreates.incrementAndGet();
                    if (refuse.test(n)) {
                        return Future.failedFuture(new ApiException(code, reason, "pods \"" + a.name()
                                + "\" refused (" + reason + ")"));
                    }
                }
                return Future.succeededFuture();
            }
        });
    }

    static CloneSet createCloneSet(String name, int replicas) {
        CloneSet cs = CloneSetEndToEndTest.cloneSet(NS, name, replicas, "nginx:1");
        return client.resources(CloneSet.class).inNamespace(NS).resource(cs).create();
    }

    static CloneSetPlan scaleUpPlan(CloneSet cs) {
        CloneSetPlanner.State state = new CloneSetPlanner.State(cs, List.of(), List.of(), "rev-1",
                cs.getSpec().getTemplate(), "rev-1", CloneSetPlanner.Options.defaults(), java.time.Instant.now(), Set.of());
        CloneSetPlan plan = CloneSetPlanner.plan(state, new Random(7));
        assertEquals(cs.getSpec().getReplicas(), plan.creates().size(), plan.summary());
        return plan;
    }

    /** Runs the plan on an event loop, as the reconciler does; returns how it ended. */
    Future<Void> execute(CloneSet cs, CloneSetPlan plan, BiFunction<String, String, CloneSet> cached) throws Exception {
        CloneSetActuator actuator = new CloneSetActuator(client, kube, scale,
                new ResourceVersionExpectations(Duration.ofMinutes(5), Clock.systemUTC()),
                new CloneSetEvents(client, kube, Clock.systemUTC()), Clock.systemUTC(), false, cached);
        Promise<Void> done = Promise.promise();
        vertx.getOrCreateContext().runOnContext(v -> actuator.execute(cs, plan, "rev-1").onComplete(done));
        Future<Void> ended = done.future();
        try {
            ended.await(60, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // The outcome is examined by the test.
        }
        assertTrue(ended.isComplete(), "the act step ended");
        return ended;
    }

    static Set<String> podNames(String app) {
        return client.pods().inNamespace(NS).withLabel("app", app).list().getItems().stream()
                .map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
    }

    Set<String> expectedCreates(CloneSet cs) {
        return scale.pending(Request.of(cs).key()).getOrDefault(ScaleAction.CREATE, Set.of());
    }

    @Test
    void creationStopsAfterTheFirstBatchWithAFailure() throws Exception {
        CloneSet cs = createCloneSet("fails", 20);
        CloneSetPlan plan = scaleUpPlan(cs);
        countPodCreates();
        refuse = n -> n == 4;

        Future<Void> ended = execute(cs, plan, (ns, name) -> cs);

        assertTrue(ended.failed());
        assertInstanceOf(KubernetesClientException.class, ended.cause());
        // Batches 1, 2 and 4: the third batch had the refused pod; the 13 after it were never sent.
        assertEquals(7, podCreates.get());
        Set<String> created = podNames("fails");
        assertEquals(6, created.size(), created.toString());
        // Only the pods that exist are still expected (the cache has not seen them); refused and unsent are not.
        assertEquals(created, expectedCreates(cs));
    }

    @Test
    void aCreateRefusedWithAConflictLeavesNoExpectationBehind() throws Exception {
        // A 409 that is not AlreadyExists (a webhook's or a proxy's refusal) created nothing: no ADDED event will
        // come, so an expectation kept for it would hold the CloneSet still until the expectation timeout (5 min).
        CloneSet cs = createCloneSet("conflict", 2);
        CloneSetPlan plan = scaleUpPlan(cs);
        countPodCreates(409, "Conflict");
        refuse = n -> n == 1;

        Future<Void> ended = execute(cs, plan, (ns, name) -> cs);

        assertTrue(ended.failed());
        assertEquals(Set.of(), podNames("conflict"));
        assertEquals(Set.of(), expectedCreates(cs));
    }

    @Test
    void creationStopsWhenTheCloneSetIsGoneFromTheCache() throws Exception {
        CloneSet cs = createCloneSet("goes", 20);
        CloneSetPlan plan = scaleUpPlan(cs);
        countPodCreates();

        // The cache loses the CloneSet once the server has had three pod creates (batches of 1 and 2).
        Future<Void> ended = execute(cs, plan, (ns, name) -> podCreates.get() >= 3 ? null : cs);

        StalePlanException stale = assertInstanceOf(StalePlanException.class, ended.cause());
        assertEquals("stopped after 3 of 20: the owner was deleted", stale.getMessage());
        assertEquals(3, podCreates.get());
        Set<String> created = podNames("goes");
        assertEquals(3, created.size());
        assertEquals(created, expectedCreates(cs));
    }

    @Test
    void noPodIsCreatedForACloneSetBeingDeletedOrChangedSincePlanning() throws Exception {
        CloneSet cs = createCloneSet("deleting", 5);
        CloneSetPlan plan = scaleUpPlan(cs);
        countPodCreates();
        CloneSet deleting = copyWith(cs, c -> c.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z"));

        Future<Void> ended = execute(cs, plan, (ns, name) -> deleting);

        assertEquals("stopped after 0 of 5: the owner is being deleted", ended.cause().getMessage());
        assertEquals(0, podCreates.get());
        assertTrue(expectedCreates(cs).isEmpty());

        CloneSet changed = copyWith(cs, c -> c.getMetadata().setGeneration(c.getMetadata().getGeneration() + 1));
        ended = execute(cs, plan, (ns, name) -> changed);
        assertTrue(ended.cause().getMessage().contains("the owner's spec changed"), ended.cause().getMessage());
        assertEquals(0, podCreates.get());
        assertTrue(podNames("deleting").isEmpty());
    }

    @Test
    void everyPodIsCreatedWhileTheCloneSetStaysAsPlanned() throws Exception {
        CloneSet cs = createCloneSet("stays", 12);
        CloneSetPlan plan = scaleUpPlan(cs);
        countPodCreates();

        Future<Void> ended = execute(cs, plan, (ns, name) -> cs);

        assertTrue(ended.succeeded(), () -> String.valueOf(ended.cause()));
        assertEquals(12, podNames("stays").size());
        List<Pod> pods = client.pods().inNamespace(NS).withLabel("app", "stays").list().getItems();
        assertTrue(pods.stream().allMatch(p -> p.getMetadata().getOwnerReferences().get(0).getUid()
                .equals(cs.getMetadata().getUid())));
    }

    static CloneSet copyWith(CloneSet cs, java.util.function.Consumer<CloneSet> change) {
        CloneSet copy = io.fabric8.kubernetes.client.utils.Serialization.clone(cs);
        change.accept(copy);
        return copy;
    }
}
