package dev.kruisevertx.cloneset;

import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.sim.api.ResourceType;
import dev.kruisevertx.sim.testing.Await;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A CloneSet of 100,000 replicas (and one of 2147483647) deleted while it scales up, with only the CloneSet controller
 * in the manager: the manager's event loops stay responsive while it plans (the plan is bounded and computed off the
 * loop), creation stops within one plan of the deletion, and the garbage collector removes every pod, including
 * those created while the deletion raced the last batch.
 */
class CloneSetDeletedMidScaleUpTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    /**
     * A loop turn this long means the loop was blocked: the unbounded plan of 100,000 pods held it 3.7 s to 26 s;
     * with the fix the longest gap seen was about 0.4 s on a loaded 2-core machine (class loading, GC).
     */
    static final long MAX_LOOP_GAP_MS = 1_500;

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .controllers(() -> List.of(new CloneSetController())).build();

    /** Ticks on one event loop and keeps the longest time between two ticks. */
    static final class LoopProbe extends AbstractVerticle {
        static final long PERIOD_MS = 20;
        final AtomicLong maxGapMs;
        long last;

        LoopProbe(AtomicLong maxGapMs) {
            this.maxGapMs = maxGapMs;
        }

        @Override
        public void start() {
            last = System.nanoTime();
            vertx.setPeriodic(PERIOD_MS, id -> {
                long now = System.nanoTime();
                maxGapMs.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(now - last), Math::max);
                last = now;
            });
        }
    }

    int pods(String name) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", name).list().getItems().size();
    }

    @Test
    void deletedWhileScalingUpStopsCreatingAndEveryPodIsCollected() throws Exception {
        scaleUpThenDelete("huge", 100_000);
    }

    /** Kubernetes allows it, so the webhook does too: nothing in the controller may grow with replicas. */
    @Test
    void theLargestReplicasCreatePlanByPlanAndStopWhenDeleted() throws Exception {
        scaleUpThenDelete("largest", Integer.MAX_VALUE);
    }

    private void scaleUpThenDelete(String name, int replicas) throws Exception {
        // One probe per event loop of the manager (instances are spread round-robin over the loops).
        AtomicLong maxGapMs = new AtomicLong();
        String probes = product.app().vertx().deployVerticle(() -> new LoopProbe(maxGapMs),
                new DeploymentOptions().setInstances(2 * VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE))
                .await(30, TimeUnit.SECONDS);
        // Every pod the API server ever stored for this test.
        AtomicInteger created = new AtomicInteger();
        ResourceType podType = product.cluster().apiServer().registry().byKey("pods").orElseThrow();
        Runnable unlisten = product.cluster().onApiContext(() -> product.cluster().apiServer().store().listen(podType,
                e -> {
                    if (e.type().equals("ADDED") && name.equals(e.object().path("metadata").path("labels")
                            .path("app").asText())) {
                        created.incrementAndGet();
                    }
                })).await(10, TimeUnit.SECONDS);
        try {
            product.client().resources(CloneSet.class).inNamespace(product.namespace()).resource(
                    CloneSetEndToEndTest.cloneSet(product.namespace(), name, replicas, "nginx:1")).create();
            // More than one plan's worth: the scale-up goes on plan after plan.
            int midWay = CloneSetPlanner.MAX_CREATES_PER_PLAN + 100;
            Await.waitFor("more than " + midWay + " pods created", WAIT, () -> created.get() > midWay);
            Await.waitFor("the status written", WAIT, () -> {
                CloneSet cs = product.client().resources(CloneSet.class).inNamespace(product.namespace()).withName(name).get();
                return cs.getStatus() != null && cs.getStatus().getReplicas() > 0;
            });

            int before = created.get();
            product.client().resources(CloneSet.class).inNamespace(product.namespace()).withName(name).delete();
            Await.waitFor("the CloneSet gone", WAIT,
                    () -> product.client().resources(CloneSet.class).inNamespace(product.namespace()).withName(name).get() == null);

            Await.waitFor("every pod collected", WAIT, () -> pods(name) == 0);
            int total = created.get();
            // Creation stopped within the plan in flight: at most one more plan's worth was sent after the delete.
            assertTrue(total - before <= CloneSetPlanner.MAX_CREATES_PER_PLAN,
                    (total - before) + " pods created after the delete (" + before + " before it)");
            // And it stays stopped: nothing more is created, nothing is left behind.
            Thread.sleep(3_000);
            assertEquals(total, created.get(), "pods created after the CloneSet and its pods were gone");
            assertEquals(0, pods(name));
            assertTrue(maxGapMs.get() < MAX_LOOP_GAP_MS, "a manager event loop was blocked for "
                    + maxGapMs.get() + " ms");
        } finally {
            product.cluster().onApiContext(() -> {
                unlisten.run();
                return null;
            }).await(10, TimeUnit.SECONDS);
            product.app().vertx().undeploy(probes).await(10, TimeUnit.SECONDS);
        }
    }
}
