package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.AdaptiveUnitedDeploymentStrategy;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentScheduleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The default Adaptive strategy's unschedulable subsets, as OpenKruise decides them. */
class AdaptiveSchedulabilityTest {
    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    static final UnitedDeploymentScheduleStrategy ADAPTIVE = adaptive(null, null);

    static UnitedDeploymentScheduleStrategy adaptive(Integer critical, Integer hold) {
        UnitedDeploymentScheduleStrategy s = new UnitedDeploymentScheduleStrategy();
        s.setType("Adaptive");
        AdaptiveUnitedDeploymentStrategy a = new AdaptiveUnitedDeploymentStrategy();
        a.setRescheduleCriticalSeconds(critical);
        a.setUnschedulableDuration(hold);
        s.setAdaptive(a);
        return s;
    }

    static Pod pending(String name, int ageSeconds, boolean unschedulable) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name)
                .withCreationTimestamp(NOW.minusSeconds(ageSeconds).toString()).endMetadata()
                .withNewSpec().endSpec().withNewStatus().withPhase("Pending").endStatus();
        if (unschedulable) {
            b.editStatus().addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable")
                    .endCondition().endStatus();
        }
        return b.build();
    }

    static UnitedDeploymentSubsetCondition condition(String status, int secondsAgo) {
        UnitedDeploymentSubsetCondition c = new UnitedDeploymentSubsetCondition();
        c.setType("Schedulable");
        c.setStatus(status);
        c.setLastTransitionTime(NOW.minusSeconds(secondsAgo).toString());
        return c;
    }

    @Test
    void aPodUnschedulableLongerThanTheCriticalDurationMarksTheSubset() {
        AdaptiveSchedulability.Result r = AdaptiveSchedulability.evaluate(ADAPTIVE, null, 3, 1,
                List.of(pending("old", 31, true), pending("young", 10, true), pending("waiting", 100, false)), NOW);
        assertTrue(r.unschedulable());
        assertEquals(1, r.pendingPods());
        assertEquals("False", r.status());
        assertEquals("reschedule", r.reason());
        assertEquals("timeout pending pods found", r.message());
        assertEquals(Duration.ofSeconds(20), r.recheckIn(), "the young pod times out in 20s");
    }

    @Test
    void aYoungPendingPodOnlyAsksForARecheck() {
        AdaptiveSchedulability.Result r = AdaptiveSchedulability.evaluate(adaptive(10, null), null, 2, 1,
                List.of(pending("young", 4, true)), NOW);
        assertFalse(r.unschedulable());
        assertNull(r.status());
        assertEquals(Duration.ofSeconds(6), r.recheckIn());
    }

    @Test
    void boundDeletedAndRunningPodsAndAFullyReadySubsetDoNotCount() {
        Pod bound = pending("bound", 100, true);
        bound.getSpec().setNodeName("node-1");
        Pod deleted = pending("deleted", 100, true);
        deleted.getMetadata().setDeletionTimestamp(NOW.toString());
        Pod running = pending("running", 100, true);
        running.getStatus().setPhase("Running");
        assertFalse(AdaptiveSchedulability.evaluate(ADAPTIVE, null, 4, 1, List.of(bound, deleted, running), NOW)
                .unschedulable());
        assertFalse(AdaptiveSchedulability.evaluate(ADAPTIVE, null, 1, 1, List.of(pending("p", 100, true)), NOW)
                .unschedulable(), "OpenKruise looks at pods only while fewer are ready than exist");
    }

    @Test
    void anUnschedulableSubsetStaysSoForTheDurationThenRecovers() {
        AdaptiveSchedulability.Result held = AdaptiveSchedulability.evaluate(ADAPTIVE, condition("False", 100), 2, 2,
                List.of(), NOW);
        assertTrue(held.unschedulable());
        assertNull(held.status(), "no change while held");
        assertEquals(Duration.ofSeconds(200), held.recheckIn());
        AdaptiveSchedulability.Result recovered = AdaptiveSchedulability.evaluate(adaptive(null, 60),
                condition("False", 61), 2, 2, List.of(), NOW);
        assertFalse(recovered.unschedulable());
        assertEquals("True", recovered.status());
        assertEquals("recover", recovered.reason());
        assertEquals("unschedulable subset recovered after 60.000000 seconds", recovered.message());
        assertFalse(AdaptiveSchedulability.evaluate(ADAPTIVE, condition("True", 1), 2, 2, List.of(), NOW)
                .unschedulable());
    }
}
