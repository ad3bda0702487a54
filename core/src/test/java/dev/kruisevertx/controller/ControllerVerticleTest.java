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

    /** Deploys a reconciler that also records a plan after each successful reconcile; returns the recorder. */
    private PlanRecorder deployRecording(Reconciler reconciler) throws Exception {
        PlanRecorder plans = new PlanRecorder();
        deploy(request -> reconciler.reconcile(request).onSuccess(r -> plans.record("test", request, "done")), 1,
                plans);
        return plans;
    }

    private String deploy(Reconciler reconciler, int workers) throws Exception {
        return deploy(reconciler, workers, new PlanRecorder());
    }

    private String deploy(Reconciler reconciler, int workers, PlanRecorder plans) throws Exception {
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
                plans, settings);
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
            await("conflict retried, then the lost lease", () -> attempts.get() == 2);
            // A lost lease drops the key (issue 14): only a new event brings it back.
            Thread.sleep(200);
            assertEquals(2, attempts.get(), "a key whose write lost the lease is not retried");
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
    void eachFailureKindIsSettledByItsOwnRule() throws Exception {
        Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        try (CapturedLog log = CapturedLog.of(ControllerVerticle.class)) {
            deploy(request -> {
                int n = runs.computeIfAbsent(request.name(), k -> new AtomicInteger()).incrementAndGet();
                if (n > 1) {
                    return Future.succeededFuture(Result.done());
                }
                return Future.failedFuture(switch (request.name()) {
                    case "gone" -> new KubernetesClientException(new StatusBuilder().withCode(404)
                            .withReason("NotFound").withMessage("pods \"gone\" not found").build());
                    case "leader" -> new KubeExecutor.NotLeaderException();
                    case "busy" -> new KubernetesClientException(new StatusBuilder().withCode(429)
                            .withReason("TooManyRequests").withMessage("slow down").build());
                    case "down" -> new KubernetesClientException(new StatusBuilder().withCode(503)
                            .withReason("ServiceUnavailable").withMessage("etcd is down").build());
                    case "slow" -> new KubernetesClientException("timed out",
                            new java.io.InterruptedIOException("timeout"));
                    default -> new KubernetesClientException(new StatusBuilder().withCode(403)
                            .withReason("Forbidden").withMessage("pods is forbidden").build());
                });
            }, 2);
            for (String name : List.of("gone", "leader", "busy", "down", "slow", "forbidden")) {
                publish(pod(name));
            }
            await("back-off kinds retried", () -> List.of("busy", "down", "slow", "forbidden").stream()
                    .allMatch(n -> runs.containsKey(n) && runs.get(n).get() == 2));
            Thread.sleep(300);
            assertEquals(1, runs.get("gone").get(), "NotFound means the object is gone: a success, not retried");
            assertEquals(1, runs.get("leader").get(), "a lost lease drops the key");
            assertEquals(5.0, registry.get("controller_runtime_reconcile").tag("result", "success").counter().count(),
                    "the NotFound reconcile counts as a success, as do the 4 retries");

            for (String transientKind : List.of("busy", "down", "slow")) {
                List<CapturedLog.Line> lines = log.containing("reconcile of ns/" + transientKind + " ");
                assertEquals(1, lines.size(), lines.toString());
                assertEquals(Level.INFO, lines.get(0).level());
                assertNull(lines.get(0).thrown(), "throttling, server errors and timeouts are one line");
                assertTrue(lines.get(0).message().contains("will back off"), lines.get(0).message());
            }
            List<CapturedLog.Line> forbidden = log.containing("reconcile of ns/forbidden ");
            assertEquals(Level.WARN, forbidden.get(0).level());
            assertNotNull(forbidden.get(0).thrown(), "anything else keeps its stack trace");
            List<CapturedLog.Line> leader = log.containing("reconcile of ns/leader ");
            assertTrue(leader.get(0).message().contains("dropped"), leader.toString());
            assertNull(leader.get(0).thrown());
        }
    }

    @Test
    void aConflictIsOneLineNamingControllerKeyAndReconcileId() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        List<Long> ids = new CopyOnWriteArrayList<>();
        try (CapturedLog log = CapturedLog.of(ControllerVerticle.class)) {
            deploy(request -> {
                ids.add(ReconcileContext.current().id());
                if (attempts.incrementAndGet() == 1) {
                    return Future.failedFuture(new KubernetesClientException(new StatusBuilder().withCode(409)
                            .withReason("Conflict").withMessage("the object has been modified").build()));
                }
                return Future.succeededFuture(Result.done());
            }, 1);
            publish(pod("c"));
            await("conflict requeued promptly", () -> attempts.get() == 2);
            List<CapturedLog.Line> lines = log.containing("reconcile of ns/c ");
            assertEquals(1, lines.size(), lines.toString());
            CapturedLog.Line line = lines.get(0);
            assertEquals("controller test: reconcile of ns/c [id " + ids.get(0)
                    + "] lost a race, requeued (retry #1): conflict (409): the object has been modified", line.message());
            assertNull(line.thrown());
            assertTrue(ids.get(1) > ids.get(0), "every reconcile has an id of its own: " + ids);
        }
    }

    /**
     * A write an admission webhook denied, as kube-apiserver answers it (the webhook's code, its message after
     * {@code admission webhook "NAME" denied the request: }), through fabric8's client: one warning line per retry
     * naming the object and the webhook's message, no stack trace, and the key still backs off.
     */
    @Test
    void anAdmissionDenialIsOneWarningLineNamingTheObjectAndTheWebhooksMessage() throws Exception {
        try (dev.kruisevertx.cache.MockCluster cluster = dev.kruisevertx.cache.MockCluster.expectations();
             CapturedLog log = CapturedLog.of(ControllerVerticle.class)) {
            String denial = "admission webhook \"pub.kruise.io\" denied the request: pub unavailable allowed is negative";
            cluster.server.expect().delete().withPath("/api/v1/namespaces/ns/pods/web-1")
                    .andReturn(403, new StatusBuilder().withStatus("Failure").withCode(403).withReason("Forbidden")
                            .withMessage(denial).build()).always();
            KubeExecutor kube = new KubeExecutor(vertx, "test-kube", 1);
            AtomicInteger attempts = new AtomicInteger();
            List<Long> ids = new CopyOnWriteArrayList<>();
            deploy(request -> {
                ids.add(ReconcileContext.current().id());
                attempts.incrementAndGet();
                return kube.write(() -> cluster.client.pods().inNamespace("ns").withName("web-1").delete())
                        .map(r -> Result.done());
            }, 1);
            publish(pod("d"));
            await("the denied write retried twice", () -> attempts.get() >= 3);
            List<CapturedLog.Line> lines = log.containing("reconcile of ns/d ");
            assertTrue(lines.size() >= 2, lines.toString());
            assertEquals("controller test: reconcile of ns/d [id " + ids.get(0) + "] will back off (retry #1): "
                    + "write of pods ns/web-1 denied (403): " + denial, lines.get(0).message());
            for (CapturedLog.Line line : lines) {
                assertEquals(Level.WARN, line.level(), line.toString());
                assertNull(line.thrown(), "a webhook's denial is an answer, not a bug: no stack trace");
            }
            assertTrue(lines.get(1).message().contains("(retry #2)"), "the key backs off: " + lines);
            kube.close();
        }
    }

    /** A real 409 from the API server (fabric8's mock in CRUD mode): a write over an object another writer changed. */
    @Test
    void aConflictForcedByAnotherWriterIsOneLineWithoutStackTrace() throws Exception {
        try (dev.kruisevertx.cache.MockCluster cluster = dev.kruisevertx.cache.MockCluster.crud();
             CapturedLog log = CapturedLog.of(ControllerVerticle.class)) {
            KubeExecutor kube = new KubeExecutor(vertx, "test-kube", 1);
            Pod stale = cluster.client.pods().inNamespace("ns").resource(pod("f")).create();
            cluster.client.pods().inNamespace("ns").resource(new PodBuilder(stale).editMetadata()
                    .addToLabels("other", "writer").endMetadata().build()).update();
            AtomicInteger attempts = new AtomicInteger();
            List<Long> ids = new CopyOnWriteArrayList<>();
            deploy(request -> {
                ids.add(ReconcileContext.current().id());
                if (attempts.incrementAndGet() > 1) {
                    return Future.succeededFuture(Result.done());
                }
                return kube.write(() -> cluster.client.resource(new PodBuilder(stale).editMetadata()
                        .addToLabels("ours", "x").endMetadata().build()).update()).map(p -> Result.done());
            }, 1);
            publish(pod("f"));
            await("requeued after the conflict", () -> attempts.get() == 2);
            List<CapturedLog.Line> lines = log.containing("ns/f");
            assertEquals(1, lines.size(), lines.toString());
            String line = lines.get(0).message();
            assertTrue(line.startsWith("controller test: reconcile of ns/f [id " + ids.get(0) + "] lost a race, requeued"
                    + " (retry #1): conflict (409): "), line);
            assertTrue(!line.contains("\n"), line);
            assertNull(lines.get(0).thrown(), "no stack trace for a conflict");
            kube.close();
        }
    }

    @Test
    void theReconcileContextMarksLinesLoggedOnWorkerThreadsAndRecordedPlans() throws Exception {
        org.slf4j.Logger logger = org.slf4j.LoggerFactory.getLogger(ReconcileContextProbe.class);
        KubeExecutor kube = new KubeExecutor(vertx, "test-kube", 2);
        List<String> threads = new CopyOnWriteArrayList<>();
        try (CapturedLog log = CapturedLog.of(ReconcileContextProbe.class)) {
            PlanRecorder plans = deployRecording(request -> kube.call(() -> {
                        threads.add(Thread.currentThread().getName());
                        logger.info("on a worker for {}", request);
                        return "ok";
                    })
                    .compose(v -> kube.call(() -> "second hop"))
                    .map(v -> {
                        logger.info("back on the loop for {}", request);
                        return Result.done();
                    }));
            publish(pod("m"));
            await("both lines logged", () -> log.containing("for ns/m").size() == 2);
            CapturedLog.Line worker = log.containing("on a worker for ns/m").get(0);
            assertTrue(threads.get(0).startsWith("test-kube"), threads.toString());
            assertEquals("test", worker.context().get(ReconcileContext.MDC_CONTROLLER), worker.context().toString());
            assertEquals("ns/m", worker.context().get(ReconcileContext.MDC_KEY));
            String id = worker.context().get(ReconcileContext.MDC_ID);
            assertNotNull(id, "the reconcile id is on a line logged from a worker thread");
            assertEquals("Pod ADDED ns/m", worker.context().get(ReconcileContext.MDC_TRIGGER));
            assertEquals(id, log.containing("back on the loop for ns/m").get(0).context().get(ReconcileContext.MDC_ID));
            await("plan recorded", () -> plans.last("test", Request.parse("ns/m")) != null);
            assertEquals(Long.parseLong(id), plans.last("test", Request.parse("ns/m")).reconcileId());
            assertEquals("Pod ADDED ns/m", plans.last("test", Request.parse("ns/m")).trigger());
        } finally {
            kube.close();
        }
        // Outside of a reconcile nothing is added.
        assertNull(ReconcileContext.current());
    }

    /** A logger name for the context test. */
    private static final class ReconcileContextProbe {
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

    /**
     * With more cached objects than one replay slice, the first reconcile starts only after every cached object went
     * through the mappers: a controller indexing its objects from the events (the sidecarset controller) must never
     * reconcile against a partial index (it wrote statuses with its pods missing at each restart).
     */
    @Test
    void workersStartOnlyOnceTheWholeCacheWasReplayed() throws Exception {
        int pods = ControllerVerticle.REPLAY_SLICE * 2 + 100;
        try (dev.kruisevertx.cache.MockCluster cluster = dev.kruisevertx.cache.MockCluster.crud();
             dev.kruisevertx.cache.WatchCache cache = new dev.kruisevertx.cache.WatchCache(cluster.client,
                     new dev.kruisevertx.cache.WatchCacheOptions(null, Duration.ZERO, false), registry)) {
            for (int i = 0; i < pods; i++) {
                cluster.client.pods().inNamespace("ns").resource(pod("p-" + i)).create();
            }
            cache.start(Pod.class).toCompletableFuture().get(60, TimeUnit.SECONDS);
            AtomicInteger mapped = new AtomicInteger();
            List<Integer> mappedAtReconcile = new CopyOnWriteArrayList<>();
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
                    EventMapper<Pod> counting = (event, queue) -> {
                        mapped.incrementAndGet();
                        EventMapper.<Pod>self().map(event, queue);
                    };
                    return new Controller(request -> {
                        mappedAtReconcile.add(mapped.get());
                        return Future.succeededFuture(Result.done());
                    }, List.of(WatchSpec.of(Pod.class, counting)));
                }
            };
            ManagerSettings settings = new ManagerSettings(null, Duration.ofMinutes(5), Duration.ofMillis(1),
                    Duration.ofMillis(50), 1000, 1000, Map.of("test", 4), Map.of());
            ControllerContext ctx = new ControllerContext(vertx, cache, null, null, FeatureGates.defaults(), registry,
                    new PlanRecorder(), settings);
            vertx.deployVerticle(new ControllerVerticle(definition, ctx), new DeploymentOptions())
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            await("every cached pod reconciled", () -> mappedAtReconcile.size() >= pods);
            assertTrue(mappedAtReconcile.get(0) >= pods, "the first reconcile saw " + mappedAtReconcile.get(0)
                    + " of " + pods + " cached pods mapped");
            // Let the watch go quiet before it is closed (the mock cannot close while it is still sending).
            cluster.client.pods().inNamespace("ns").resource(pod("settle")).create();
            await("marker pod in cache", () -> cache.resource(Pod.class).get("ns", "settle") != null);
        }
    }
}
