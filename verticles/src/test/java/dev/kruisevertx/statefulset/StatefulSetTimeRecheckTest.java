package dev.kruisevertx.statefulset;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.kruisevertx.statefulset.StatefulSetPlannerTest.NEW;
import static dev.kruisevertx.statefulset.StatefulSetPlannerTest.NOW;
import static dev.kruisevertx.statefulset.StatefulSetPlannerTest.OLD;
import static dev.kruisevertx.statefulset.StatefulSetPlannerTest.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Advanced StatefulSet decide step schedules its own next look whenever a ready pod will turn available by
 * minReadySeconds passing, whichever step decided: the status counts available pods too. "fresh" pods of
 * {@link StatefulSetPlannerTest} turned ready 2 s before {@code NOW}; with minReadySeconds 5 they turn available
 * strictly after NOW + 3 s, so the look is due at NOW + 4 s.
 */
class StatefulSetTimeRecheckTest {
    static final int MIN_READY = 5;
    static final Duration DUE = Duration.ofSeconds(4);

    static StatefulSetPlannerTest.Builder builder() {
        StatefulSetPlannerTest.Builder b = new StatefulSetPlannerTest.Builder();
        b.minReady = MIN_READY;
        return b;
    }

    @Test
    void orderedReadyCreatesTheNextPodOnlyOnceItsPredecessorIsAvailable() {
        StatefulSetPlannerTest.Builder b = builder().pods(pod(0, NEW, "fresh"));
        StatefulSetPlan waiting = b.plan();
        assertEquals(List.of(), waiting.creates(), waiting.summary());
        assertTrue(waiting.summary().contains("web-0 to be available"), waiting.summary());
        assertEquals(DUE, waiting.requeueAfter(), waiting.summary());

        // The same pods decided again when the look is due.
        b.now = NOW.plus(waiting.requeueAfter());
        StatefulSetPlan next = b.plan();
        assertEquals(List.of("web-1"), StatefulSetPlannerTest.created(next), next.summary());
        assertEquals(Duration.ZERO, next.requeueAfter(), "nothing waits on time: " + next.summary());
    }

    @Test
    void aBlockedOrderedReadySetStillLooksAgainForThePodsTurningAvailable() {
        // web-0 lost its readiness and blocks the set; web-1 turning available changes the status only, and no
        // event says so.
        StatefulSetPlannerTest.Builder b = builder().pods(pod(0, NEW, "pending"), pod(1, NEW, "fresh"),
                pod(2, NEW, "ready"));
        StatefulSetPlan blocked = b.plan();
        assertTrue(blocked.isEmpty(), blocked.summary());
        assertTrue(blocked.summary().contains("web-0 to be running and ready"), blocked.summary());
        assertEquals(DUE, blocked.requeueAfter(), blocked.summary());
    }

    @Test
    void aParallelRollingUpdateWaitsForTheUpdatedPodToBeAvailableAndLooksAgain() {
        StatefulSetPlannerTest.Builder b = builder().pods(pod(0, OLD, "ready"), pod(1, OLD, "ready"),
                pod(2, NEW, "fresh"));
        b.parallel = true;
        StatefulSetPlan waiting = b.plan();
        assertTrue(waiting.deletes().isEmpty() && waiting.inPlace().isEmpty(),
                "maxUnavailable 1 is used up by web-2: " + waiting.summary());
        assertEquals(DUE, waiting.requeueAfter(), waiting.summary());

        b.now = NOW.plus(waiting.requeueAfter());
        assertEquals(List.of("web-1"), StatefulSetPlannerTest.deleted(b.plan(), StatefulSetPlan.Reason.UPDATE));
    }

    @Test
    void parallelScaleUpHeldByScaleMaxUnavailableLooksAgain() {
        StatefulSetPlannerTest.Builder b = builder().pods(pod(0, NEW, "fresh"), pod(1, NEW, "fresh"));
        b.parallel = true;
        b.scaleMax = 2;
        StatefulSetPlan held = b.plan();
        assertEquals(List.of(), held.creates(), held.summary());
        assertEquals(DUE, held.requeueAfter(), held.summary());
    }

    @Test
    void anInPlaceGracePeriodDueEarlierShortensTheLookAndALaterOneLeavesIt() {
        StatefulSetPlan waiting = builder().pods(pod(0, NEW, "fresh")).plan();
        assertEquals(Duration.ofSeconds(1), waiting.requeueWithin(Duration.ofSeconds(1)).requeueAfter());
        assertEquals(DUE, waiting.requeueWithin(Duration.ofSeconds(30)).requeueAfter());
        assertEquals(DUE, waiting.requeueWithin(Duration.ZERO).requeueAfter(), "no grace period running");
        StatefulSetPlan idle = builder().pods(pod(0, NEW, "ready"), pod(1, NEW, "ready"), pod(2, NEW, "ready")).plan();
        assertEquals(Duration.ZERO, idle.requeueAfter(), idle.summary());
        assertEquals(Duration.ofSeconds(7), idle.requeueWithin(Duration.ofSeconds(7)).requeueAfter());
    }

    @Test
    void statusCountsAvailabilityStrictlyAfterMinReadySeconds() {
        var set = StatefulSetFixtures.statefulSet("ns", "web", 1, "nginx:1");
        set.getMetadata().setGeneration(1L);
        var pods = List.of(pod(0, NEW, "fresh"));
        // Ready at NOW - 2 s: available strictly after NOW + 3 s.
        assertEquals(0, status(set, pods, NOW.plusSeconds(3)).getAvailableReplicas());
        assertEquals(1, status(set, pods, NOW.plus(DUE)).getAvailableReplicas());
        assertEquals(1, status(set, pods, NOW.plus(DUE)).getUpdatedAvailableReplicas());
    }

    static dev.kruisevertx.api.apps.v1beta1.StatefulSetStatus status(
            dev.kruisevertx.api.apps.v1beta1.StatefulSet set, List<io.fabric8.kubernetes.api.model.Pod> pods,
            java.time.Instant now) {
        return StatefulSetStatusCalculator.calculate(set, pods, p -> dev.kruisevertx.podutil.Pods.label(p,
                        dev.kruisevertx.api.common.WellKnown.CONTROLLER_REVISION_HASH_LABEL), NEW, NEW, 1, MIN_READY,
                now, 0, null, null);
    }
}
