package dev.kruisevertx.cloneset;

import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus;
import dev.kruisevertx.api.common.InPlaceUpdateStrategy;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static dev.kruisevertx.cloneset.CloneSetUpdateCasesTest.NOW;
import static dev.kruisevertx.cloneset.CloneSetUpdateCasesTest.OLD;
import static dev.kruisevertx.cloneset.CloneSetUpdateCasesTest.OLD_REVISION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The decide step schedules its own next look whenever the passing of time alone changes what it decides or what
 * the status counts: a ready pod turning available after minReadySeconds (Kubernetes' strict rule: available once
 * readyTime + minReadySeconds &lt; now), an in-place grace period running out. The clock is the {@code now} of the
 * snapshot; "later" is the same snapshot decided again at {@code now + requeueAfter}, as the requeue will.
 */
class CloneSetTimeRecheckTest {
    static final int MIN_READY = 5;

    /** 6 replicas, maxUnavailable 1, InPlaceIfPossible, minReadySeconds 5: the CloneSet. */
    static CloneSet cloneSet(String image) {
        CloneSet cs = CloneSetUpdateCasesTest.cloneSet(image, CloneSetUpdateCasesTest::inPlaceIfPossible);
        cs.getSpec().setReplicas(6);
        cs.getSpec().setMinReadySeconds(MIN_READY);
        cs.getSpec().getUpdateStrategy().setMaxUnavailable(new IntOrString(1));
        return cs;
    }

    /** Pod {@code i} at {@code revision} on {@code image}, Ready since {@code readySince}. */
    static Pod pod(int i, String revision, String image, Instant readySince) {
        Pod p = CloneSetUpdateCasesTest.pod(revision, image).editMetadata().withName("pod-" + i)
                .addToLabels(WellKnown.CLONESET_INSTANCE_ID_LABEL, "id-" + i)
                .addToLabels(WellKnown.LIFECYCLE_STATE_LABEL, WellKnown.LIFECYCLE_STATE_NORMAL).endMetadata().build();
        p.getStatus().getConditions().stream().filter(c -> c.getType().equals("Ready")).findFirst().orElseThrow()
                .setLastTransitionTime(readySince.toString());
        return p;
    }

    static CloneSetPlan decide(CloneSet cs, ControllerRevision update, List<Pod> pods, Instant now) {
        return CloneSetPlanner.plan(new CloneSetPlanner.State(cs, pods, List.of(), OLD,
                CloneSetRevisions.templateOf(OLD_REVISION), update.getMetadata().getName(),
                CloneSetPlanner.Options.defaults(), now, Set.of(), List.of(OLD_REVISION, update)), new Random(1));
    }

    static CloneSetStatus status(CloneSet cs, ControllerRevision update, List<Pod> pods, Instant now) {
        return CloneSetStatusCalculator.calculate(cs, pods, OLD, update.getMetadata().getName(), null, null, null, now);
    }

    @Test
    void anUpdatedPodStillWaitingOutMinReadySecondsSchedulesTheNextLook() {
        CloneSet cs = cloneSet("foo2");
        ControllerRevision update = CloneSetUpdateCasesTest.revisionOf(cs);
        String updated = update.getMetadata().getName();
        // pod-0 was just updated in place and turned ready again 1 s ago; the others are old and long available.
        List<Pod> pods = new ArrayList<>();
        pods.add(pod(0, updated, "foo2", NOW.minusSeconds(1)));
        for (int i = 1; i < 6; i++) {
            pods.add(pod(i, OLD, "foo1", NOW.minusSeconds(7000)));
        }

        CloneSetPlan waiting = decide(cs, update, pods, NOW);
        assertTrue(waiting.inPlace().isEmpty() && waiting.recreates().isEmpty(),
                "maxUnavailable is used up by pod-0: " + waiting.summary());
        // Ready at NOW-1s, available strictly after NOW+4s: look again just past it.
        assertEquals(Duration.ofSeconds(MIN_READY), waiting.requeueAfter(), waiting.summary());
        CloneSetStatus before = status(cs, update, pods, NOW);
        assertEquals(5, before.getAvailableReplicas());
        assertEquals(0, before.getUpdatedAvailableReplicas());

        Instant later = NOW.plus(waiting.requeueAfter());
        CloneSetPlan next = decide(cs, update, pods, later);
        assertEquals(1, next.inPlace().size(), "pod-0 is available now, the next pod goes: " + next.summary());
        CloneSetStatus after = status(cs, update, pods, later);
        assertEquals(6, after.getAvailableReplicas());
        assertEquals(1, after.getUpdatedAvailableReplicas());
    }

    @Test
    void availabilityCountsOnlyStrictlyAfterMinReadySeconds() {
        CloneSet cs = cloneSet("foo1");
        ControllerRevision current = CloneSetUpdateCasesTest.revisionOf(cloneSet("foo1"));
        List<Pod> pods = List.of(pod(0, OLD, "foo1", NOW.minusSeconds(MIN_READY)));
        assertEquals(0, status(cs, current, pods, NOW).getAvailableReplicas(), "ready exactly minReadySeconds ago");
        assertEquals(1, status(cs, current, pods, NOW.plusMillis(1)).getAvailableReplicas());
    }

    @Test
    void aSettledCloneSetWhosePodsAreNotYetAvailableStillLooksAgainForItsStatus() {
        CloneSet cs = cloneSet("foo1");
        ControllerRevision update = CloneSetUpdateCasesTest.revisionOf(cloneSet("foo1"));
        String rev = update.getMetadata().getName();
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            pods.add(pod(i, rev, "foo1", NOW.minusSeconds(i)));
        }
        CloneSetPlan fresh = decide(cs, update, pods, NOW);
        assertTrue(!fresh.hasActions(), fresh.summary());
        // pod-5, ready exactly minReadySeconds ago, turns available first: just past now.
        assertEquals(Duration.ofSeconds(1), fresh.requeueAfter(), fresh.summary());
        assertEquals(0, status(cs, update, pods, NOW).getAvailableReplicas());

        Instant settled = NOW.plusSeconds(MIN_READY + 1);
        assertEquals(6, status(cs, update, pods, settled).getAvailableReplicas());
        assertEquals(Duration.ZERO, decide(cs, update, pods, settled).requeueAfter(), "nothing left to wait for");
    }

    @Test
    void aGracePeriodRunningOutIsLookedAtAgainWhenTheRefreshHasNothingElseToWrite() {
        CloneSet grace = CloneSetUpdateCasesTest.cloneSet("foo2", cs -> {
            CloneSetUpdateCasesTest.inPlaceIfPossible(cs);
            cs.getSpec().getUpdateStrategy().setInPlaceUpdateStrategy(new InPlaceUpdateStrategy());
            cs.getSpec().getUpdateStrategy().getInPlaceUpdateStrategy().setGracePeriodSeconds(3630);
            return cs;
        });
        ControllerRevision update = CloneSetUpdateCasesTest.revisionOf(grace);
        // 3610 s into a 3630 s grace period, and already carrying its pod-template-hash: nothing to write now.
        Pod waiting = new PodBuilder(CloneSetUpdateCasesTest.inGrace(grace, update, 3610)).editMetadata()
                .addToLabels(WellKnown.POD_TEMPLATE_HASH_LABEL, Pods.shortHash(update.getMetadata().getName()))
                .endMetadata().build();
        CloneSetPlan plan = decide(grace, update, List.of(waiting), NOW);
        assertTrue(!plan.hasActions(), plan.summary());
        assertEquals(Duration.ofSeconds(20), plan.requeueAfter(), "looks again when the grace period ends: "
                + plan.summary());

        CloneSetPlan over = decide(grace, update, List.of(waiting), NOW.plus(plan.requeueAfter()));
        assertEquals(1, over.podWrites().size(), "the delayed update is applied: " + over.summary());
    }
}
