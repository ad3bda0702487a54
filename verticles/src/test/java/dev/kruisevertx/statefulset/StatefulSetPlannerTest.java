package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.DesiredOrdinals;
import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;
import dev.kruisevertx.api.common.UpdatePriorityWeightTerm;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatefulSetPlannerTest {
    static final Instant NOW = Instant.parse("2026-01-01T00:10:00Z");
    static final String OLD = "web-old";
    static final String NEW = "web-new";

    /** A pod at a revision: "ready", "pending" (running, not ready), "failed" or "terminating". */
    static Pod pod(int ordinal, String revision, String state) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("web-" + ordinal)
                .addToLabels(WellKnown.CONTROLLER_REVISION_HASH_LABEL, revision).addToLabels("tier", ordinal == 1 ? "front" : "back")
                .endMetadata().withNewSpec().endSpec();
        switch (state) {
            case "ready" -> b.withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True")
                    .withLastTransitionTime(Pods.formatTime(NOW.minusSeconds(60))).endCondition().endStatus();
            case "fresh" -> b.withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True")
                    .withLastTransitionTime(Pods.formatTime(NOW.minusSeconds(2))).endCondition().endStatus();
            case "pending" -> b.withNewStatus().withPhase("Running").addNewCondition().withType("Ready")
                    .withStatus("False").endCondition().endStatus();
            case "failed" -> b.withNewStatus().withPhase("Failed").endStatus();
            case "terminating" -> b.editMetadata().withDeletionTimestamp(Pods.formatTime(NOW)).endMetadata()
                    .withNewStatus().withPhase("Running").endStatus();
            default -> throw new IllegalArgumentException(state);
        }
        return b.build();
    }

    static final class Builder {
        DesiredOrdinals desired = DesiredOrdinals.range(3, 0);
        boolean parallel;
        boolean rolling = true;
        int partition;
        int maxUnavailable = 1;
        boolean paused;
        Integer scaleMax;
        int minReady;
        Map<Integer, Pod> pods = new HashMap<>();
        Predicate<Pod> inPlace = p -> false;
        boolean inPlaceOnly;
        UpdatePriorityStrategy priority;
        StatefulSetOrdinalPlanner.Claims claims = StatefulSetOrdinalPlanner.Claims.NONE;
        Instant now = NOW;
        Predicate<Pod> updateCompleted = p -> true;

        Builder pods(Pod... ps) {
            for (Pod p : ps) {
                pods.put(PodOrdinals.ordinalOf("web", p.getMetadata().getName()), p);
            }
            return this;
        }

        StatefulSetPlan plan() {
            return StatefulSetOrdinalPlanner.plan(new StatefulSetOrdinalPlanner.State("web", desired, parallel, rolling, partition,
                    maxUnavailable, paused, scaleMax, minReady, OLD, NEW, pods,
                    p -> Pods.label(p, WellKnown.CONTROLLER_REVISION_HASH_LABEL), inPlace, inPlaceOnly, priority, now,
                    claims, updateCompleted));
        }
    }

    static List<String> created(StatefulSetPlan p) {
        return p.creates().stream().map(StatefulSetPlan.Create::name).toList();
    }

    static List<String> deleted(StatefulSetPlan p, StatefulSetPlan.Reason reason) {
        return p.deletes().stream().filter(d -> d.reason() == reason).map(StatefulSetPlan.Delete::name).toList();
    }

    @Test
    void orderedReadyCreatesTheFirstMissingOrdinalOnly() {
        assertEquals(List.of("web-0"), created(new Builder().plan()));
        assertEquals(List.of("web-1"), created(new Builder().pods(pod(0, NEW, "ready")).plan()));
        // Waits while a predecessor is not ready.
        StatefulSetPlan waiting = new Builder().pods(pod(0, NEW, "pending")).plan();
        assertTrue(waiting.isEmpty(), waiting.summary());
        assertTrue(waiting.summary().contains("web-0"), waiting.summary());
    }

    @Test
    void parallelCreatesEverythingUpToScaleMaxUnavailable() {
        Builder b = new Builder();
        b.parallel = true;
        b.desired = DesiredOrdinals.range(5, 0);
        assertEquals(List.of("web-0", "web-1", "web-2", "web-3", "web-4"), created(b.plan()));
        b.scaleMax = 2;
        assertEquals(List.of("web-0", "web-1"), created(b.plan()));
        b.pods(pod(0, NEW, "ready"), pod(1, NEW, "pending"));
        assertEquals(List.of("web-2"), created(b.plan()));
    }

    @Test
    void aHugeParallelScaleUpIsPlannedAFewHundredPodsAtATime() {
        Builder b = new Builder();
        b.parallel = true;
        b.desired = DesiredOrdinals.range(100_000, 0);
        StatefulSetPlan first = b.plan();
        assertEquals(StatefulSetPlanner.MAX_CREATES_PER_PLAN, first.creates().size());
        assertEquals("web-0", first.creates().get(0).name());
        assertTrue(first.summary().contains("at most " + StatefulSetPlanner.MAX_CREATES_PER_PLAN), first.summary());
        // The summary names a few pods and counts the rest: 100,000 names make no log line.
        assertTrue(first.summary().length() < 1_000, first.summary());
        assertTrue(first.summary().contains("(100000 in all)"), first.summary());
        for (int i = 0; i < 3; i++) {
            b.pods(pod(i, NEW, "ready"));
        }
        StatefulSetPlan next = b.plan();
        assertEquals("web-3", next.creates().get(0).name(), "the next plan goes on where the pods end");
        assertEquals(StatefulSetPlanner.MAX_CREATES_PER_PLAN, next.creates().size());
    }

    @Test
    void failedPodsAreReplaced() {
        Builder b = new Builder().pods(pod(0, NEW, "ready"), pod(1, NEW, "failed"));
        StatefulSetPlan p = b.plan();
        assertEquals(List.of("web-1"), deleted(p, StatefulSetPlan.Reason.FAILED));
        assertTrue(p.creates().isEmpty(), "OrderedReady waits for the replacement before going on");
    }

    @Test
    void condemnedPodsGoHighestFirstAndOneAtATimeWhenOrdered() {
        Builder b = new Builder().pods(pod(0, NEW, "ready"), pod(1, NEW, "ready"), pod(2, NEW, "ready"),
                pod(3, NEW, "ready"), pod(4, NEW, "ready"));
        assertEquals(List.of("web-4"), deleted(b.plan(), StatefulSetPlan.Reason.CONDEMNED));
        b.parallel = true;
        assertEquals(List.of("web-4", "web-3"), deleted(b.plan(), StatefulSetPlan.Reason.CONDEMNED));
        // Ordered: nothing is deleted while another pod is unhealthy.
        Builder unhealthy = new Builder().pods(pod(0, NEW, "ready"), pod(1, NEW, "ready"), pod(2, NEW, "ready"),
                pod(3, NEW, "pending"), pod(4, NEW, "ready"));
        assertTrue(deleted(unhealthy.plan(), StatefulSetPlan.Reason.CONDEMNED).isEmpty());
    }

    @Test
    void reservingAnOrdinalCreatesTheNextAndDeletesTheReservedPod() {
        Builder b = new Builder().pods(pod(0, NEW, "ready"), pod(2, NEW, "ready"), pod(3, NEW, "ready"),
                pod(4, NEW, "ready"));
        b.desired = DesiredOrdinals.ofReserved(4, 0, Set.of(1, 3));
        StatefulSetPlan ordered = b.plan();
        assertEquals(List.of("web-5"), created(ordered));
        assertTrue(ordered.deletes().isEmpty(), "OrderedReady deletes pod 3 once pod 5 is ready");
        b.pods(pod(5, NEW, "ready"));
        assertEquals(List.of("web-3"), deleted(b.plan(), StatefulSetPlan.Reason.CONDEMNED));
    }

    @Test
    void rollingUpdateRespectsPartitionAndMaxUnavailable() {
        Builder b = new Builder().pods(pod(0, OLD, "ready"), pod(1, OLD, "ready"), pod(2, OLD, "ready"),
                pod(3, OLD, "ready"), pod(4, OLD, "ready"));
        b.desired = DesiredOrdinals.range(5, 0);
        assertEquals(List.of("web-4"), deleted(b.plan(), StatefulSetPlan.Reason.UPDATE));
        b.parallel = true;
        b.maxUnavailable = 2;
        assertEquals(List.of("web-4", "web-3"), deleted(b.plan(), StatefulSetPlan.Reason.UPDATE));
        b.partition = 4;
        assertEquals(List.of("web-4"), deleted(b.plan(), StatefulSetPlan.Reason.UPDATE));
        b.partition = 0;
        // One updated pod still not ready uses one unit of the budget.
        b.pods(pod(4, NEW, "pending"));
        assertEquals(List.of("web-3"), deleted(b.plan(), StatefulSetPlan.Reason.UPDATE));
        b.paused = true;
        assertTrue(b.plan().isEmpty());
        b.paused = false;
        b.rolling = false;
        assertTrue(b.plan().isEmpty(), "OnDelete never deletes for an update");
    }

    @Test
    void unavailablePodsNeedingUpdateAreUpdatedWithoutUsingTheBudget() {
        Builder b = new Builder().pods(pod(0, OLD, "ready"), pod(1, OLD, "pending"), pod(2, OLD, "ready"));
        b.parallel = true;
        // maxUnavailable 1 is used up by web-1: web-2 must wait, but web-1 itself is updated at once.
        assertEquals(List.of("web-1"), deleted(b.plan(), StatefulSetPlan.Reason.UPDATE));
    }

    @Test
    void inPlaceWhenPossibleAndInPlaceOnlyWaits() {
        Builder b = new Builder().pods(pod(0, OLD, "ready"), pod(1, OLD, "ready"), pod(2, OLD, "ready"));
        b.inPlace = p -> true;
        StatefulSetPlan p = b.plan();
        assertEquals(List.of("web-2"), p.inPlace());
        assertTrue(p.deletes().isEmpty());
        b.inPlace = x -> false;
        b.inPlaceOnly = true;
        StatefulSetPlan only = b.plan();
        assertTrue(only.isEmpty(), only.summary());
        assertTrue(only.summary().contains("InPlaceOnly"), only.summary());
    }

    @Test
    void aPodWhoseInPlaceUpdateIsNotCompleteCountsUnavailableThoughStillReady() {
        // web-2 was just updated in place: at the new revision, still Ready (the kubelet has not yet seen
        // InPlaceUpdateReady=False), containers not yet restarted. Upstream counts it unavailable; so must we, or
        // web-1 goes down with it and two of three pods are unavailable with maxUnavailable 1.
        Pod updating = pod(2, NEW, "ready");
        for (boolean parallel : new boolean[]{false, true}) {
            Builder b = new Builder().pods(pod(0, OLD, "ready"), pod(1, OLD, "ready"), updating);
            b.parallel = parallel;
            b.inPlace = p -> true;
            b.updateCompleted = p -> p != updating;
            StatefulSetPlan held = b.plan();
            assertTrue(held.inPlace().isEmpty() && held.deletes().isEmpty(), held.summary());
            b.updateCompleted = p -> true;
            assertEquals(List.of("web-1"), b.plan().inPlace(), "once complete the update moves on");
        }
    }

    @Test
    void priorityStrategyOrdersAParallelUpdate() {
        Builder b = new Builder().pods(pod(0, OLD, "ready"), pod(1, OLD, "ready"), pod(2, OLD, "ready"));
        b.parallel = true;
        UpdatePriorityStrategy priority = new UpdatePriorityStrategy();
        UpdatePriorityWeightTerm term = new UpdatePriorityWeightTerm();
        term.setWeight(100);
        term.setMatchSelector(new LabelSelectorBuilder().addToMatchLabels("tier", "front").build());
        priority.setWeightPriority(List.of(term));
        b.priority = priority;
        assertEquals(List.of("web-1"), deleted(b.plan(), StatefulSetPlan.Reason.UPDATE));
    }

    @Test
    void recreatedPodsBelowThePartitionKeepTheCurrentRevision() {
        Builder b = new Builder().pods(pod(1, OLD, "ready"), pod(2, NEW, "ready"));
        b.partition = 2;
        StatefulSetPlan p = b.plan();
        assertEquals(List.of(new StatefulSetPlan.Create(0, "web-0", OLD)), p.creates());
        b.pods.clear();
        b.partition = 0;
        assertEquals(NEW, b.plan().creates().get(0).revision());
    }

    @Test
    void minReadySecondsDelaysTheNextUpdateAndRequeues() {
        Builder b = new Builder().pods(pod(0, OLD, "ready"), pod(1, OLD, "ready"), pod(2, NEW, "fresh"));
        b.minReady = 30;
        StatefulSetPlan p = b.plan();
        assertTrue(p.deletes().isEmpty(), p.summary());
        assertTrue(p.requeueAfter().compareTo(Duration.ZERO) > 0
                && p.requeueAfter().compareTo(Duration.ofSeconds(30)) <= 0, p.requeueAfter().toString());
    }

    @Test
    void onPodRollingUpdateExpandsClaimsWithinMaxUnavailableBeforeTouchingPods() {
        Builder b = new Builder();
        b.parallel = true;
        b.pods(pod(0, NEW, "ready"), pod(1, NEW, "ready"), pod(2, NEW, "ready"));
        Set<String> small = new java.util.HashSet<>(Set.of("web-0", "web-1", "web-2"));
        Set<String> growing = new java.util.HashSet<>();
        b.claims = new StatefulSetOrdinalPlanner.Claims(true, p -> !small.contains(p.getMetadata().getName()),
                p -> !growing.contains(p.getMetadata().getName()),
                p -> !growing.contains(p.getMetadata().getName()));
        // Pods at the update revision still owe an update while their PVCs are smaller than the templates.
        StatefulSetPlan first = b.plan();
        assertEquals(List.of("web-2"), first.resize(), first.summary());
        assertTrue(first.deletes().isEmpty() && first.inPlace().isEmpty(), first.summary());

        // web-2's PVC is expanding: it counts as unavailable, so nothing else moves.
        small.remove("web-2");
        growing.add("web-2");
        StatefulSetPlan waiting = b.plan();
        assertTrue(waiting.isEmpty(), waiting.summary());
        assertEquals(StatefulSetOrdinalPlanner.CLAIM_RESIZE_RECHECK, waiting.requeueAfter(), "looks again while expanding");

        // Expanded: web-2 stays (same revision), the next pod's PVCs grow.
        growing.remove("web-2");
        assertEquals(List.of("web-1"), b.plan().resize());

        // Without the strategy the same pods need nothing.
        b.claims = StatefulSetOrdinalPlanner.Claims.NONE;
        assertTrue(b.plan().isEmpty());
        assertEquals(Duration.ZERO, b.plan().requeueAfter());
    }

    @Test
    void onPodRollingUpdateRecreatesAnOldPodOnceItsClaimsAreExpanded() {
        Builder b = new Builder();
        b.parallel = true;
        b.pods(pod(0, NEW, "ready"), pod(1, NEW, "ready"), pod(2, OLD, "ready"));
        Set<String> growing = new java.util.HashSet<>(Set.of("web-2"));
        b.claims = new StatefulSetOrdinalPlanner.Claims(true, p -> true, p -> true,
                p -> !growing.contains(p.getMetadata().getName()));
        StatefulSetPlan waiting = b.plan();
        assertTrue(waiting.deletes().isEmpty(), waiting.summary());
        assertTrue(waiting.summary().contains("resizing"), waiting.summary());
        growing.clear();
        assertEquals(List.of("web-2"), deleted(b.plan(), StatefulSetPlan.Reason.UPDATE));
    }

    // ---- the largest replicas: work bounded by the pods that exist and the per-plan bound ----------------------

    static final int MAX = Integer.MAX_VALUE;
    /** Generous: each plan below takes milliseconds; walking 2^31 ordinals would take minutes (or run out of heap). */
    static final Duration BOUNDED = Duration.ofSeconds(30);

    static StatefulSetPlan bounded(Builder b) {
        return assertTimeoutPreemptively(BOUNDED, b::plan);
    }

    @Test
    void theLargestParallelSetCreatesOnePlanAtATime() {
        Builder b = new Builder();
        b.parallel = true;
        b.desired = DesiredOrdinals.range(MAX, 0);
        StatefulSetPlan first = bounded(b);
        assertEquals(StatefulSetPlanner.MAX_CREATES_PER_PLAN, first.creates().size());
        assertEquals("web-0", first.creates().get(0).name());
        assertEquals("web-499", first.creates().get(StatefulSetPlanner.MAX_CREATES_PER_PLAN - 1).name());
        assertTrue(first.summary().contains("desired ordinals [0-2147483646] (2147483647 in all)"), first.summary());
        assertTrue(first.summary().length() < 1_000, first.summary());

        // 1,000 pods later (one failed, one terminating): the next 500 missing, the failed one replaced.
        for (int i = 0; i < 1_000; i++) {
            b.pods(pod(i, NEW, i == 10 ? "failed" : i == 20 ? "terminating" : "ready"));
        }
        StatefulSetPlan next = bounded(b);
        assertEquals("web-1000", next.creates().get(0).name());
        assertEquals(StatefulSetPlanner.MAX_CREATES_PER_PLAN, next.creates().size());
        assertEquals(List.of("web-10"), deleted(next, StatefulSetPlan.Reason.FAILED));
        assertTrue(deleted(next, StatefulSetPlan.Reason.CONDEMNED).isEmpty());

        // scaleStrategy.maxUnavailable counts the unavailable pods that exist (the failed and the terminating one),
        // not the ordinals still missing.
        b.scaleMax = 5;
        StatefulSetPlan limited = bounded(b);
        assertEquals(List.of("web-1000", "web-1001", "web-1002"), created(limited));
        assertTrue(limited.summary().contains("scaleStrategy.maxUnavailable 5 reached"), limited.summary());
    }

    @Test
    void theLargestOrderedReadySetCreatesTheNextOrdinalOnly() {
        Builder b = new Builder().pods(pod(0, NEW, "ready"), pod(1, NEW, "ready"), pod(2, NEW, "ready"));
        b.desired = DesiredOrdinals.range(MAX, 0);
        StatefulSetPlan p = bounded(b);
        assertEquals(List.of("web-3"), created(p));
        assertTrue(p.deletes().isEmpty(), p.summary());
    }

    @Test
    void ordinalsAtTheTopOfTheIntRange() {
        // The most validation allows: start + replicas + reserved - 1 = MAX, with a reserved range inside.
        int start = MAX - 400;
        Builder b = new Builder();
        b.parallel = true;
        b.desired = DesiredOrdinals.of(391, start, List.of(new io.fabric8.kubernetes.api.model.IntOrString(
                (start + 5) + "-" + (start + 14))));
        assertEquals(MAX, b.desired.last());
        b.pods(pod(start - 1, NEW, "ready"), pod(start + 7, NEW, "ready"), pod(MAX, NEW, "ready"),
                pod(start, NEW, "ready"));
        StatefulSetPlan p = bounded(b);
        // Below the start and inside the reserved range: condemned, highest first. The top ordinal is kept.
        assertEquals(List.of("web-" + (start + 7), "web-" + (start - 1)), deleted(p, StatefulSetPlan.Reason.CONDEMNED));
        List<String> created = created(p);
        assertEquals(391 - 2, created.size());
        assertEquals(List.of("web-" + (start + 1), "web-" + (start + 2), "web-" + (start + 3), "web-" + (start + 4),
                "web-" + (start + 15)), created.subList(0, 5));
        assertEquals("web-" + (MAX - 1), created.get(created.size() - 1));
        assertTrue(created.stream().noneMatch(n -> n.equals("web-" + MAX) || n.equals("web-" + (start + 5))));
    }

    @Test
    void scaleDownFromTheLargestSetCondemnsOnlyThePodsThatExist() {
        Builder b = new Builder();
        b.parallel = true;
        for (int i = 0; i < 2_000; i++) {
            b.pods(pod(i, NEW, "ready"));
        }
        // Reserving a range in the middle of a huge set condemns its pods, nothing else.
        b.desired = DesiredOrdinals.of(MAX - 1_000, 0, List.of(new io.fabric8.kubernetes.api.model.IntOrString(
                "500-1499")));
        StatefulSetPlan p = bounded(b);
        List<String> condemned = deleted(p, StatefulSetPlan.Reason.CONDEMNED);
        assertEquals(1_000, condemned.size());
        assertEquals("web-1499", condemned.get(0));
        assertEquals("web-500", condemned.get(condemned.size() - 1));
        assertEquals("web-2000", p.creates().get(0).name());
    }

    @Test
    void aRollingUpdateOfTheLargestSetCountsTheMissingPodsWithoutWalkingThem() {
        Builder b = new Builder().pods(pod(0, OLD, "ready"), pod(1, OLD, "ready"), pod(2, OLD, "ready"),
                pod(3, OLD, "ready"), pod(4, OLD, "ready"));
        b.parallel = true;
        b.desired = DesiredOrdinals.range(MAX, 0);
        b.scaleMax = 0;
        // MAX - 5 ordinals are still to be created and count against maxUnavailable: a budget of MAX - 3 leaves
        // room for two updates.
        b.maxUnavailable = MAX - 3;
        assertEquals(List.of("web-4", "web-3"), deleted(bounded(b), StatefulSetPlan.Reason.UPDATE));
        b.maxUnavailable = MAX - 5;
        StatefulSetPlan none = bounded(b);
        assertTrue(deleted(none, StatefulSetPlan.Reason.UPDATE).isEmpty(), none.summary());
        // Above the partition only: MAX - 1 ordinals from the partition 1 on, 4 of them exist.
        b.partition = 1;
        b.maxUnavailable = MAX - 1 - 4 + 1;
        assertEquals(List.of("web-4"), deleted(bounded(b), StatefulSetPlan.Reason.UPDATE));
    }
}
