package dev.kruisevertx.webhook.bench;

import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetStatus;
import dev.kruisevertx.pub.PubGuard;
import dev.kruisevertx.api.policy.v1alpha1.PubOperation;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A dry run is answered without a write, from the budget's status: when the shared cache has not yet seen the
 * status this process just wrote, the guard must still answer from that write (found in the embedded-cluster e2e: a
 * dry-run delete right after the budget's last allowed disruption was admitted).
 */
class PubGuardStaleCacheTest {
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    static PodUnavailableBudget budget() {
        PodUnavailableBudget pub = new PodUnavailableBudget();
        pub.setMetadata(new ObjectMetaBuilder().withNamespace("ns").withName("web-pub").withUid("uid-1")
                .withResourceVersion("1").build());
        PodUnavailableBudgetStatus status = new PodUnavailableBudgetStatus();
        status.setDesiredAvailable(2);
        status.setCurrentAvailable(3);
        status.setTotalReplicas(3);
        status.setUnavailableAllowed(1);
        pub.setStatus(status);
        return pub;
    }

    static Pod pod(String name) {
        return new PodBuilder().withNewMetadata().withNamespace("ns").withName(name)
                .addToAnnotations(WellKnown.PUB_RELATED_ANNOTATION_OLD, "web-pub").endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("nginx").endContainer().endSpec()
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True")
                .endCondition().endStatus().build();
    }

    @Test
    void aDryRunAfterTheLastAllowedDisruptionIsRefusedWhileTheCacheIsBehind() throws Exception {
        InMemoryBudgets store = new InMemoryBudgets().put(budget());
        PodUnavailableBudget stale = store.get("ns", "web-pub");
        PubGuard guard = new PubGuard(vertx, store, (ns, name) -> stale, pod -> true, false, Clock.systemUTC(),
                new SimpleMeterRegistry(), null);

        PubGuard.Outcome first = guard.admit(pod("a"), PubOperation.DELETE, "alice", false)
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertTrue(first.allowed(), first.message());
        assertEquals(0, store.get("ns", "web-pub").status().getUnavailableAllowed());

        PubGuard.Outcome dryRun = guard.admit(pod("b"), PubOperation.DELETE, "alice", true)
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertFalse(dryRun.allowed(), "the cache still says 1 allowed; this process wrote 0");
        assertTrue(dryRun.message().contains("pub unavailable allowed is negative"), dryRun.message());
    }
}
