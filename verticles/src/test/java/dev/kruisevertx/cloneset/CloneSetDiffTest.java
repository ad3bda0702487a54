package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetScaleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The diff calculation, case by case with the inputs and expected numbers of OpenKruise's
 * {@code TestCalculateDiffsWithExpectation} (pods are described as revision / lifecycle state / ready / specified-delete).
 */
class CloneSetDiffTest {
    static final String OLD = "old_rev";
    static final String NEW = "new_rev";
    static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    record Case(String name, CloneSet cs, List<Pod> pods, boolean revisionConsistent, boolean rollback,
                BiPredicate<Pod, String> isPodUpdate, CloneSetDiff expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Expected values, named like OpenKruise's struct fields; unset fields are zero. */
    static final class E {
        int scaleUpNum, scaleUpNumOldRevision, scaleDownNum, scaleDownNumOldRevision, scaleUpLimit, deleteReadyLimit,
                useSurge, useSurgeOldRevision, updateNum, updateMaxUnavailable;

        E up(int n, int limit) { scaleUpNum = n; scaleUpLimit = limit; return this; }
        E upOld(int n) { scaleUpNumOldRevision = n; return this; }
        E down(int n, int old) { scaleDownNum = n; scaleDownNumOldRevision = old; return this; }
        E delLimit(int n) { deleteReadyLimit = n; return this; }
        E surge(int n) { useSurge = n; return this; }
        E surgeOld(int n) { useSurgeOldRevision = n; return this; }
        E update(int n, int maxUnavailable) { updateNum = n; updateMaxUnavailable = maxUnavailable; return this; }

        CloneSetDiff build() {
            return new CloneSetDiff(scaleUpNum, scaleUpNumOldRevision, scaleDownNum, scaleDownNumOldRevision, scaleUpLimit,
                    deleteReadyLimit, useSurge, useSurgeOldRevision, updateNum, updateMaxUnavailable);
        }
    }

    static E e() {
        return new E();
    }

    static IntOrString i(int v) {
        return new IntOrString(v);
    }

    static IntOrString s(String v) {
        return new IntOrString(v);
    }

    static CloneSet cs(int replicas, IntOrString partition, IntOrString maxUnavailable, IntOrString maxSurge) {
        CloneSet cs = new CloneSet();
        cs.setMetadata(new ObjectMetaBuilder().withName("cs").withNamespace("ns").build());
        CloneSetSpec spec = new CloneSetSpec();
        spec.setReplicas(replicas);
        CloneSetUpdateStrategy us = new CloneSetUpdateStrategy();
        us.setPartition(partition);
        us.setMaxUnavailable(maxUnavailable);
        us.setMaxSurge(maxSurge);
        spec.setUpdateStrategy(us);
        cs.setSpec(spec);
        return cs;
    }

    static CloneSet scaleMaxUnavailable(CloneSet cs, IntOrString v) {
        CloneSetScaleStrategy ss = new CloneSetScaleStrategy();
        ss.setMaxUnavailable(v);
        cs.getSpec().setScaleStrategy(ss);
        return cs;
    }

    static CloneSet paused(CloneSet cs) {
        cs.getSpec().getUpdateStrategy().setPaused(true);
        return cs;
    }

    static CloneSet excludePreparingDelete(CloneSet cs) {
        cs.getMetadata().setLabels(Map.of(WellKnown.CLONESET_SCALING_EXCLUDE_PREPARING_DELETE_LABEL, "true"));
        return cs;
    }

    static Pod pod(String revision, String state, boolean ready, boolean specifiedDelete) {
        Map<String, String> labels = new HashMap<>();
        labels.put(WellKnown.CONTROLLER_REVISION_HASH_LABEL, revision);
        labels.put(WellKnown.LIFECYCLE_STATE_LABEL, state);
        if (specifiedDelete) {
            labels.put(WellKnown.SPECIFIED_DELETE_LABEL, "true");
        }
        PodBuilder b = new PodBuilder().withNewMetadata().withName("p-" + labels.hashCode()).withLabels(labels).endMetadata();
        if (ready) {
            b.withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True").endCondition()
                    .endStatus();
        }
        return b.build();
    }

    static final String NORMAL = WellKnown.LIFECYCLE_STATE_NORMAL;

    /** n copies of a pod description. */
    static List<Pod> n(int count, String revision, String state, boolean ready, boolean specifiedDelete) {
        List<Pod> pods = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            pods.add(pod(revision, state, ready, specifiedDelete));
        }
        return pods;
    }

    @SafeVarargs
    static List<Pod> pods(List<Pod>... groups) {
        List<Pod> all = new ArrayList<>();
        for (List<Pod> g : groups) {
            all.addAll(g);
        }
        return all;
    }

    static List<Pod> newReady(int n) {
        return n(n, NEW, NORMAL, true, false);
    }

    static List<Pod> oldReady(int n) {
        return n(n, OLD, NORMAL, true, false);
    }

    static Case c(String name, CloneSet cs, List<Pod> pods, E expected) {
        return new Case(name, cs, pods, false, true, null, expected.build());
    }

    static Case consistent(String name, CloneSet cs, List<Pod> pods, E expected) {
        return new Case(name, cs, pods, true, true, null, expected.build());
    }

    static Stream<Case> cases() {
        String pd = WellKnown.LIFECYCLE_STATE_PREPARING_DELETE;
        String updating = WellKnown.LIFECYCLE_STATE_UPDATING;
        String pu = WellKnown.LIFECYCLE_STATE_PREPARING_UPDATE;
        List<Case> list = new ArrayList<>(List.of(
                c("an empty cloneset", cs(0, i(0), i(1), i(0)), List.of(), e()),
                c("increase replicas to 5 (step 1/2)", cs(5, i(0), i(1), i(0)), List.of(), e().up(5, 5)),
                c("increase replicas to 5 (step 2/2)", cs(5, i(0), i(1), i(0)), newReady(5), e()),
                c("specified delete 1 pod (step 1/3)", cs(5, i(0), i(1), i(0)),
                        pods(n(1, NEW, NORMAL, true, true), newReady(4)), e().delLimit(1)),
                c("specified delete 1 pod (step 2/3)", cs(5, i(0), i(1), i(0)), newReady(4), e().up(1, 1)),
                c("specified delete 1 pod (step 3/3)", cs(5, i(0), i(1), i(0)), newReady(5), e()),
                c("specified delete 2 pods (step 1/6)", cs(5, i(0), i(1), i(0)),
                        pods(n(2, NEW, NORMAL, true, true), newReady(3)), e().delLimit(1)),
                c("specified delete 2 pods (step 2/6)", cs(5, i(0), i(1), i(0)),
                        pods(n(1, NEW, NORMAL, true, true), newReady(3)), e().up(1, 1)),
                c("specified delete 2 pods (step 3/6)", cs(5, i(0), i(1), i(0)),
                        pods(n(1, NEW, NORMAL, true, true), newReady(3), n(1, NEW, NORMAL, false, false)), e()),
                c("specified delete 2 pods (step 4/6)", cs(5, i(0), i(1), i(0)),
                        pods(n(1, NEW, NORMAL, true, true), newReady(4)), e().delLimit(1)),
                c("specified delete 2 pods (step 5/6)", cs(5, i(0), i(1), i(0)), newReady(4), e().up(1, 1)),
                c("specified delete 2 pods (step 6/6)", cs(5, i(0), i(1), i(0)), newReady(5), e()),
                c("specified delete 2 pods and replicas to 4 (step 1/3)", cs(4, i(0), i(1), i(0)),
                        pods(n(2, NEW, NORMAL, false, true), newReady(3)), e().delLimit(2)),
                c("specified delete 2 pods and replicas to 4 (step 2/3)", cs(4, i(0), i(1), i(0)), newReady(3), e().up(1, 1)),
                c("specified delete 2 pods and replicas to 4 (step 3/3)", cs(4, i(0), i(1), i(0)), newReady(4), e()),
                c("update partition=3 (step 1/3)", cs(5, i(3), i(1), i(0)), oldReady(5), e().update(2, 1)),
                c("update partition=3 (step 2/3)", cs(5, i(3), i(1), i(0)), pods(newReady(1), oldReady(4)), e().update(1, 1)),
                c("update partition=3 (step 3/3)", cs(5, i(3), i(1), i(0)), pods(newReady(2), oldReady(3)), e()),
                c("rollback partition=4 (step 1/3)", cs(5, i(4), i(2), i(0)), pods(newReady(4), oldReady(1)), e().update(-3, 2)),
                c("rollback partition=4 (step 2/3)", cs(5, i(4), i(2), i(0)), pods(newReady(2), oldReady(3)), e().update(-1, 2)),
                c("rollback partition=4 (step 3/3)", cs(5, i(4), i(2), i(0)), pods(newReady(1), oldReady(4)), e()),
                c("specified delete with maxSurge (step 1/4)", cs(5, i(0), i(0), i(1)),
                        pods(n(1, NEW, NORMAL, true, true), newReady(4)), e().up(1, 1).surge(1)),
                c("specified delete with maxSurge (step 2/4)", cs(5, i(0), i(0), i(1)),
                        pods(n(1, NEW, NORMAL, true, true), newReady(4), n(1, NEW, NORMAL, false, false)), e().surge(1)),
                c("specified delete with maxSurge (step 3/4)", cs(5, i(0), i(0), i(1)),
                        pods(n(1, NEW, NORMAL, true, true), newReady(5)), e().delLimit(1).surge(1)),
                c("specified delete with maxSurge (step 4/4)", cs(5, i(0), i(0), i(1)), newReady(5), e()),
                c("update in-place partition=3 with maxSurge (step 1/4)", cs(5, i(3), i(1), i(1)), oldReady(5),
                        e().up(1, 1).surge(1).update(2, 1)),
                c("update in-place partition=3 with maxSurge (step 2/4)", cs(5, i(3), i(1), i(1)),
                        pods(oldReady(5), n(1, NEW, NORMAL, false, false)), e().surge(1).update(1, 2)),
                c("update in-place partition=3 with maxSurge (step 3/4)", cs(5, i(3), i(1), i(1)),
                        pods(oldReady(4), n(1, NEW, updating, false, false), n(1, NEW, NORMAL, false, false)),
                        e().down(1, 1).delLimit(0)),
                c("update in-place partition=3 with maxSurge (step 4/4)", cs(5, i(3), i(1), i(1)),
                        pods(oldReady(4), newReady(1), n(1, NEW, NORMAL, false, false)), e().down(1, 1).delLimit(1)),
                c("update recreate partition=3 with maxSurge (step 1/7)", cs(5, i(3), i(1), i(1)), oldReady(5),
                        e().up(1, 1).surge(1).update(2, 1)),
                c("update recreate partition=3 with maxSurge (step 2/7)", cs(5, i(3), i(1), i(1)),
                        pods(oldReady(5), n(1, NEW, NORMAL, false, false)), e().surge(1).update(1, 2)),
                c("update recreate partition=3 with maxSurge (step 3/7)", cs(5, i(3), i(1), i(1)),
                        pods(oldReady(4), n(1, OLD, NORMAL, true, true), n(1, NEW, NORMAL, false, false)),
                        e().surge(1).surgeOld(1).delLimit(1).update(1, 2)),
                c("update recreate partition=3 with maxSurge (step 4/7)", cs(5, i(3), i(1), i(1)),
                        pods(oldReady(4), n(1, NEW, NORMAL, false, false)), e().surge(1).up(1, 1).update(1, 1)),
                c("update recreate partition=3 with maxSurge (step 5/7)", cs(5, i(3), i(1), i(1)),
                        pods(oldReady(4), n(2, NEW, NORMAL, false, false)), e().down(1, 1).delLimit(0)),
                c("update recreate partition=3 with maxSurge (step 6/7)", cs(5, i(3), i(1), i(1)),
                        pods(oldReady(4), newReady(1), n(1, NEW, NORMAL, false, false)), e().down(1, 1).delLimit(1)),
                c("update recreate partition=3 with maxSurge (step 7/7)", cs(5, i(3), i(1), i(1)),
                        pods(oldReady(3), newReady(2)), e()),
                c("partition=99% maxUnavailable=3 maxSurge=2 (step 1/3)", cs(5, s("99%"), i(3), i(2)), oldReady(5),
                        e().up(1, 1).surge(1).update(1, 3)),
                c("partition=99% maxUnavailable=3 maxSurge=2 (step 2/3)", cs(5, s("99%"), i(3), i(2)),
                        pods(oldReady(5), n(1, NEW, NORMAL, false, false)), e().down(1, 1).delLimit(3)),
                c("partition=99% maxUnavailable=3 maxSurge=2 (step 3/3)", cs(5, s("99%"), i(3), i(2)),
                        pods(oldReady(4), n(1, NEW, NORMAL, false, false)), e()),
                c("partition=99% maxUnavailable=40% maxSurge=30% (step 1/3)", cs(5, s("99%"), s("40%"), s("30%")), oldReady(5),
                        e().up(1, 1).surge(1).update(1, 2)),
                c("partition=99% maxUnavailable=40% maxSurge=30% (step 2/3)", cs(5, s("99%"), s("40%"), s("30%")),
                        pods(oldReady(5), n(1, NEW, NORMAL, false, false)), e().down(1, 1).delLimit(2)),
                c("partition=99% maxUnavailable=40% maxSurge=30% (step 3/3)", cs(5, s("99%"), s("40%"), s("30%")),
                        pods(oldReady(4), n(1, NEW, NORMAL, false, false)), e()),
                c("partition=99% maxUnavailable=30% maxSurge=30% (step 1/3)", cs(5, s("99%"), s("30%"), s("30%")), oldReady(5),
                        e().up(1, 1).surge(1).update(1, 1)),
                c("partition=99% maxUnavailable=30% maxSurge=30% (step 2/3)", cs(5, s("99%"), s("30%"), s("30%")),
                        pods(oldReady(5), n(1, NEW, NORMAL, false, false)), e().down(1, 1).delLimit(1)),
                c("partition=99% maxUnavailable=30% maxSurge=30% (step 3/3)", cs(5, s("99%"), s("30%"), s("30%")),
                        pods(oldReady(4), n(1, NEW, NORMAL, false, false)), e()),
                consistent("revision consistent 1", cs(5, i(0), i(1), i(0)), newReady(5), e()),
                consistent("revision consistent 2", cs(5, i(3), i(1), i(0)), newReady(5), e()),
                consistent("revision consistent 3", cs(5, i(3), i(1), i(0)), pods(oldReady(2), newReady(3)), e()),
                consistent("revision consistent 4", cs(5, i(1), i(1), i(0)), pods(oldReady(3), newReady(2)), e().update(2, 1)),
                consistent("allow to update when fail to scale out normally", cs(5, i(1), i(2), i(0)),
                        pods(oldReady(2), newReady(2)), e().up(1, 1).update(1, 1)),
                consistent("allow to update when fail to scale in normally", cs(5, i(1), i(1), i(0)),
                        pods(oldReady(3), newReady(3)), e().down(1, 2).delLimit(2).update(1, 2)),
                new Case("disable rollback feature-gate", cs(5, i(4), i(1), i(0)), pods(oldReady(1), newReady(4)),
                        false, false, null, e().build()),
                c("increase replicas 0 to 5 with scale maxUnavailable=2",
                        scaleMaxUnavailable(cs(5, i(0), i(1), i(0)), i(2)), List.of(), e().up(5, 2)),
                c("increase replicas 3 to 6 with scale maxUnavailable=2, 1 not ready",
                        scaleMaxUnavailable(cs(6, i(0), i(1), i(0)), i(2)),
                        pods(newReady(2), n(1, NEW, NORMAL, false, false)), e().up(3, 1)),
                c("increase replicas 3 to 6 with scale maxUnavailable=2, 2 not ready",
                        scaleMaxUnavailable(cs(6, i(0), i(1), i(0)), i(2)),
                        pods(newReady(1), n(2, NEW, NORMAL, false, false)), e().up(3, 0)),
                c("[exclude=false] specified delete with hook (step 1/4)", cs(3, i(0), i(1), i(0)),
                        pods(newReady(2), n(1, NEW, NORMAL, true, true)), e().delLimit(1)),
                c("[exclude=false] specified delete with hook (step 2/4)", cs(3, i(0), i(1), i(0)),
                        pods(newReady(2), n(1, NEW, pd, true, true)), e()),
                c("[exclude=false] specified delete with hook (step 3/4)", cs(3, i(0), i(1), i(0)), newReady(2), e().up(1, 1)),
                c("[exclude=false] specified delete with hook (step 4/4)", cs(3, i(0), i(1), i(0)),
                        pods(newReady(2), n(1, NEW, NORMAL, false, false)), e()),
                c("[exclude=true] specified delete with hook (step 1/4)", excludePreparingDelete(cs(3, i(0), i(1), i(0))),
                        pods(newReady(2), n(1, NEW, NORMAL, true, true)), e().delLimit(1)),
                c("[exclude=true] specified delete with hook (step 2/4)", excludePreparingDelete(cs(3, i(0), i(1), i(0))),
                        pods(newReady(2), n(1, NEW, pd, true, true)), e().up(1, 1)),
                c("[exclude=true] specified delete with hook (step 3/4)", excludePreparingDelete(cs(3, i(0), i(1), i(0))),
                        pods(newReady(2), n(1, NEW, pd, true, true), n(1, NEW, NORMAL, false, false)), e()),
                c("[exclude=true] delete with hook then cancel (step 4/5)", excludePreparingDelete(cs(3, i(0), i(1), i(0))),
                        pods(newReady(3), n(1, NEW, NORMAL, false, false)), e().down(1, 0).delLimit(1)),
                c("[exclude=true] delete with hook then cancel (step 5/5)", excludePreparingDelete(cs(3, i(0), i(1), i(0))),
                        newReady(3), e()),
                c("[exclude=true] scale down with hook then up (step 2/6)", excludePreparingDelete(cs(2, i(0), i(1), i(0))),
                        pods(newReady(2), n(1, NEW, NORMAL, true, true)), e().delLimit(2)),
                c("[exclude=true] scale down with hook then up (step 3/6)", excludePreparingDelete(cs(2, i(0), i(1), i(0))),
                        pods(newReady(2), n(1, NEW, pd, true, true)), e()),
                c("[exclude=true] scale down with hook then up (step 4/6)", excludePreparingDelete(cs(3, i(0), i(1), i(0))),
                        pods(newReady(2), n(1, NEW, pd, true, true)), e().up(1, 1)),
                c("[exclude=true] scale down with hook then up (step 6/6)", excludePreparingDelete(cs(3, i(0), i(1), i(0))),
                        pods(newReady(2), n(1, NEW, NORMAL, false, false)), e()),
                new Case("[preparing update as update] scale up, expected updated 1",
                        excludePreparingDelete(cs(4, s("90%"), i(1), i(0))),
                        pods(n(1, OLD, pu, true, false), oldReady(2)), false, true,
                        CloneSetDiff.AT_REVISION_OR_PREPARING_UPDATE, e().up(1, 1).upOld(1).build()),
                new Case("[preparing update as update] scale up, expected updated 2",
                        excludePreparingDelete(cs(4, i(2), i(1), i(0))),
                        pods(n(1, OLD, pu, true, false), oldReady(2)), false, true,
                        CloneSetDiff.AT_REVISION_OR_PREPARING_UPDATE, e().up(1, 1).build()),
                c("[paused] scale up with maxSurge=3 maxUnavailable=0", paused(cs(5, i(0), i(0), i(3))), oldReady(3),
                        e().up(2, 2).update(3, -2)),
                c("[paused] scale down with maxSurge=3 maxUnavailable=0", paused(cs(3, i(0), i(0), i(3))), oldReady(5),
                        e().down(2, 5).delLimit(2).update(3, 2)),
                c("[paused] surge pods are scaled down", paused(cs(5, i(0), i(0), i(3))),
                        pods(oldReady(5), n(3, NEW, NORMAL, false, false)), e().down(3, 5).update(2, 3)),
                c("[paused] surge pods are scaled down with partition=2", paused(cs(5, i(2), i(0), i(3))),
                        pods(oldReady(5), n(3, NEW, NORMAL, false, false)), e().down(3, 3))));
        return list.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesOpenKruise(Case tc) {
        String current = tc.revisionConsistent() ? NEW : OLD;
        CloneSetDiff got = CloneSetDiff.calculate(tc.cs(), tc.pods(), current, NEW, tc.rollback(), tc.isPodUpdate(), NOW);
        assertEquals(tc.expected(), got);
    }

    @Test
    void podsToDeleteCountLikeTheLabel() {
        CloneSet byName = cs(5, i(0), i(1), i(0));
        List<Pod> pods = newReady(5);
        CloneSetScaleStrategy ss = new CloneSetScaleStrategy();
        ss.setPodsToDelete(List.of(pods.get(0).getMetadata().getName()));
        byName.getSpec().setScaleStrategy(ss);
        assertEquals(e().delLimit(1).build(), CloneSetDiff.calculate(byName, pods, NEW, NEW, false, null, NOW));
    }

    @Test
    void minReadySecondsKeepsFreshPodsUnavailable() {
        CloneSet set = cs(3, i(0), i(1), i(0));
        set.getSpec().setMinReadySeconds(30);
        List<Pod> pods = newReady(3);
        pods.forEach(p -> p.getStatus().getConditions().get(0).setLastTransitionTime(NOW.minusSeconds(10).toString()));
        set.getSpec().setReplicas(2);
        // Three unavailable pods against maxUnavailable 1: none of them is "ready" so deleting is not limited by it,
        // but the limit itself is what is left of the budget: 1 + (3 - 2) - 3 < 0.
        assertEquals(e().down(1, 0).delLimit(0).build(), CloneSetDiff.calculate(set, pods, NEW, NEW, false, null, NOW));
        assertEquals(e().down(1, 0).delLimit(2).build(),
                CloneSetDiff.calculate(set, pods, NEW, NEW, false, null, NOW.plusSeconds(60)));
    }

    @Test
    void malformedPercentageIsAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CloneSetDiff.calculate(cs(5, s("ten%"), i(1), i(0)), List.of(), OLD, NEW, false, null, NOW));
        assertEquals(true, e.getMessage().contains("ten%"), e.getMessage());
    }

    @Test
    void theLargestReplicasNeverWrapAround() {
        int max = Integer.MAX_VALUE;
        // replicas + surge past the int range wrapped to a negative expected total; with pods specified for deletion
        // that read as a scale-down by 2147483646.
        CloneSet huge = cs(max, i(0), i(1), s("10%"));
        assertEquals(e().up(max, max).surge(10).update(10, 1 + 10 - max).build(),
                CloneSetDiff.calculate(huge, n(10, OLD, NORMAL, true, false), OLD, NEW, false, null, NOW));
        assertEquals(e().up(max, max).surge(10).update(10, 1 + 10 - max).build(),
                CloneSetDiff.calculate(huge, pods(n(8, OLD, NORMAL, true, false), n(2, OLD, NORMAL, true, true)),
                        OLD, NEW, false, null, NOW));
        // maxUnavailable + the pods above replicas past the int range: no scale-down was allowed at all.
        CloneSet wide = cs(1, i(0), i(max), i(0));
        assertEquals(e().down(2, 0).delLimit(max).build(),
                CloneSetDiff.calculate(wide, newReady(3), NEW, NEW, false, null, NOW));
    }
}
