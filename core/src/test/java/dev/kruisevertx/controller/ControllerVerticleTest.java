package dev.kruisevertx.controller;

import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.cache.CacheEventBus;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.kube.KubeExecutor;
import dev.kruisevertx.testing.CapturedLog;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class ControllerVerticleTest {
    private Vertx vertx;
    private SimpleMeterRegistry registry;

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx();
        CacheEventBus.registerCodec(vertx);
        registry = new SimpleMeterRegistry();
    }

    @AfterEach
    void tearDown() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static Pod pod(String name) {
        return new PodBuilder().withNewMetadata().withNamespace("ns").withName(name).endMetadata().build();
    }

    private void publish(Pod pod) {
        vertx.eventBus().publish(CacheEventBus.address(Pod.class), CacheEvent.added(pod, false),
                new DeliveryOptions().setLocalOnly(true).setCodecName(CacheEventBus.CODEC_NAME));
    }

    private String deploy(Reconciler reconciler, int workers) throws Exception {
        ControllerDefinition definition = new ControllerDefinition() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public Class<Pod> primaryType() {
                return Pod.class;
            }

            @Override
            public Controller create(ControllerContext context) {
                return new Controller(reconciler, List.of(WatchSpec.of(Pod.class, EventMapper.self())));
            }
        };
        ManagerSettings settings = new ManagerSettings(null, Duration.ofMinutes(5), Duration.ofMillis(1),
                Duration.ofMillis(50), 1000, 1000, Map.of("test", workers), Map.of());
        ControllerContext ctx = new ControllerContext(vertx, null, null, null, FeatureGates.defaults(), registry,
                new PlanRecorder(), settings);
        return vertx.deployVerticle(new ControllerVerticle(definition, ctx), new DeploymentOptions())
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(10);
        }
        fail("timed out waiting for " + what);
    }

    @Test
    void oneKeyIsNeverReconciledTwiceAtOnceAndEventsDuringAReconcileRunItAgain() throws Exception {
        Set<String> inFlight = ConcurrentHashMap.newKeySet();
        AtomicInteger overlaps = new AtomicInteger();
        Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        List<Promise<Result>> held = new CopyOnWriteArrayList<>();
        deploy(request -> {
            if (!inFlight.add(request.key())) {
                overlaps.incrementAndGet();
            }
            runs.computeIfAbsent(request.key(), k -> new AtomicInteger()).incrementAndGet();
            Promise<Result> promise = Promise.promise();
            held.add(promise);
            return promise.future().onComplete(ar -> inFlight.remove(request.key()));
        }, 4);

        publish(pod("a"));
        await("first reconcile of a", () -> held.size() == 1);
        // While a is being reconciled, many events for it arrive: they collapse into ONE later run.
        for (int i = 0; i < 50; i++) {
            publish(pod("a"));
        }
        publish(pod("b"));
        await("b reconciled in parallel with a", () -> held.size() == 2);
        Thread.sleep(200);
        assertEquals(2, held.size(), "a must not be handed to a second worker while in flight");

        vertx.runOnContext(v -> held.get(0).complete(Result.done()));
        await("a runs once more after done", () -> held.size() == 3);
        held.forEach(p -> vertx.runOnContext(v -> p.tryComplete(Result.done())));
        await("all done", () -> inFlight.isEmpty());
        Thread.sleep(100);
        assertEquals(0, overlaps.get());
        assertEquals(2, runs.get("ns/a").get());
        assertEquals(1, runs.get("ns/b").get());
        assertEquals(3.0, registry.get("controller_runtime_reconcile").tag("result", "success").counter().count());
    }

    @Test
    void failuresRetryWithBackoffAndRequeueAfterSchedules() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        List<Long> times = new CopyOnWriteArrayList<>();
        deploy(request -> {
            times.add(System.nanoTime());
            int n = attempts.incrementAndGet();
            if (n <= 3) {
                return Future.failedFuture(new IllegalStateException("boom " + n));
            }
            if (n == 4) {
                return Future.succeededFuture(Result.requeueAfter(Duration.ofMillis(300)));
            }
            return Future.succeededFuture(Result.done());
        }, 2);
        publish(pod("x"));
        await("five attempts", () -> attempts.get() == 5);
        assertEquals(3.0, registry.get("controller_runtime_reconcile_errors").counter().count());
        assertEquals(3.0, registry.get("controller_runtime_reconcile").tag("result", "error").counter().count());
        assertEquals(1.0, registry.get("controller_runtime_reconcile").tag("result", "requeue_after").counter().count());
        long requeueGapMillis = TimeUnit.NANOSECONDS.toMillis(times.get(4) - times.get(3));
        assertTrue(requeueGapMillis >= 290, "requeueAfter honoured, gap was " + requeueGapMillis + " ms");
        Thread.sleep(200);
        assertEquals(5, attempts.get(), "no further runs once done");
    }

    @Test
    void aThrowingReconcilerIsRetriedNotFatal() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        deploy(request -> {
            if (attempts.incrementAndGet() == 1) {
                throw new IllegalStateException("bug");
            }
            return Future.succeededFuture(Result.done());
        }, 1);
        publish(pod("y"));
        await("retried after the throw", () -> attempts.get() == 2);
    }

    @Test
    void expectedFailuresAreOneLineAndBugsKeepTheirStackTrace() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        try (CapturedLog log = CapturedLog.of(ControllerVerticle.class)) {
            deploy(request -> switch (attempts.incrementAndGet()) {
                case 1 -> Future.failedFuture(new KubernetesClientException(new StatusBuilder().withCode(409)
                        .withReason("Conflict").withMessage("Operation cannot be fulfilled on pods \"w\"").build()));
                case 2 -> Future.failedFuture(new KubeExecutor.NotLeaderException());
                case 3 -> Future.failedFuture(new IllegalStateException("a bug"));
                default -> Future.succeededFuture(Result.done());
            }, 1);
            publish(pod("w"));
            await("retried past every failure", () -> attempts.get() == 4);
            await("three failures logged", () -> log.containing("reconcile of ns/w").size() == 3);

            List<CapturedLog.Line> lines = log.containing("reconcile of ns/w");
            CapturedLog.Line conflict = lines.get(0);
            assertEquals(Level.INFO, conflict.level(), lines.toString());
            assertNull(conflict.thrown(), "a conflict is logged without a stack trace");
            assertTrue(conflict.message().contains("conflict (409): Operation cannot be fulfilled on pods \"w\""),
                    conflict.message());
            CapturedLog.Line notLeader = lines.get(1);
            assertEquals(Level.INFO, notLeader.level(), lines.toString());
            assertNull(notLeader.thrown(), "a refused write after a lost lease is logged without a stack trace");
            assertTrue(notLeader.message().contains("not the leader"), notLeader.message());
            CapturedLog.Line bug = lines.get(2);
            assertEquals(Level.WARN, bug.level(), lines.toString());
            assertNotNull(bug.thrown(), "an unexpected failure keeps its stack trace");
            assertTrue(bug.message().contains("a bug"), bug.message());
        }
    }

    @Test
    void undeployDrainsAndStopsReconciling() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        String id = deploy(request -> {
            runs.incrementAndGet();
            return Future.succeededFuture(Result.done());
        }, 2);
        publish(pod("z"));
        await("one run", () -> runs.get() == 1);
        vertx.undeploy(id).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        publish(pod("z"));
        Thread.sleep(200);
        assertEquals(1, runs.get());
    }
}
