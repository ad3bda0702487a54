package dev.kruisevertx.statefulset;

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
        List<Integer> desired = List.of(0, 1, 2);
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
        StatefulSetPlanner.Claims claims = StatefulSetPlanner.Claims.NONE;
        Instant now = NOW;

        Builder pods(Pod... ps) {
            for (Pod p : ps) {
                pods.put(PodOrdinals.ordinalOf("web", p.getMetadata().getName()), p);
            }
            return this;
        }

        StatefulSetPlan plan() {
            return StatefulSetPlanner.plan(new StatefulSetPlanner.State("web", desired, parallel, rolling, partition,
                    maxUnavailable, paused, scaleMax, minReady, OLD, NEW, pods,
                    p -> Pods.label(p, WellKnown.CONTROLLER_REVISION_HASH_LABEL), inPlace, inPlaceOnly, priority, now,
                    claims));
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
        b.desired = List.of(0, 1, 2, 3, 4);
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
        b.desired = PodOrdinals.desired(100_000, 0, Set.of());
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
        b.desired = PodOrdinals.desired(4, 0, Set.of(1, 3));
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
        b.desired = List.of(0, 1, 2, 3, 4);
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
        b.claims = new StatefulSetPlanner.Claims(true, p -> !small.contains(p.getMetadata().getName()),
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
        assertEquals(StatefulSetPlanner.CLAIM_RESIZE_RECHECK, waiting.requeueAfter(), "looks again while expanding");

        // Expanded: web-2 stays (same revision), the next pod's PVCs grow.
        growing.remove("web-2");
        assertEquals(List.of("web-1"), b.plan().resize());

        // Without the strategy the same pods need nothing.
        b.claims = StatefulSetPlanner.Claims.NONE;
        assertTrue(b.plan().isEmpty());
        assertEquals(Duration.ZERO, b.plan().requeueAfter());
    }

    @Test
    void onPodRollingUpdateRecreatesAnOldPodOnceItsClaimsAreExpanded() {
        Builder b = new Builder();
        b.parallel = true;
        b.pods(pod(0, NEW, "ready"), pod(1, NEW, "ready"), pod(2, OLD, "ready"));
        Set<String> growing = new java.util.HashSet<>(Set.of("web-2"));
        b.claims = new StatefulSetPlanner.Claims(true, p -> true, p -> true,
                p -> !growing.contains(p.getMetadata().getName()));
        StatefulSetPlan waiting = b.plan();
        assertTrue(waiting.deletes().isEmpty(), waiting.summary());
        assertTrue(waiting.summary().contains("resizing"), waiting.summary());
        growing.clear();
        assertEquals(List.of("web-2"), deleted(b.plan(), StatefulSetPlan.Reason.UPDATE));
    }
}
