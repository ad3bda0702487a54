package dev.kruisevertx.cloneset;

import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.inplace.InPlaceUpdateCalculator;
import dev.kruisevertx.inplace.InPlaceUpdateOptions;
import dev.kruisevertx.inplace.InPlaceUpdateSpec;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.inplace.RevisionLabels;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The update step against the scenarios of OpenKruise's {@code cloneset_update_test.go}: one reconcile over one
 * CloneSet, and what happens to each pod — updated in place, marked for recreation, moved to a lifecycle state,
 * its in-place update carried on or finished, only its {@code pod-template-hash} label fixed, or left alone — then
 * the default update order, and how many pods partition, maxUnavailable and maxSurge let through.
 */
class CloneSetUpdateCasesTest {
    static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    static final String IMAGE_ID = "image-id-xyz";

    // ---- TestUpdate ---------------------------------------------------------------------------------------------

    /** CloneSet {@code clone-test} with one container c1 running {@code image}. */
    static CloneSet cloneSet(String image, UnaryOperator<CloneSet> change) {
        CloneSet cs = new CloneSet();
        cs.setMetadata(new ObjectMetaBuilder().withName("clone-test").withNamespace("ns").withUid("uid-1").build());
        CloneSetSpec spec = new CloneSetSpec();
        spec.setReplicas(1);
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "demo").build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", "demo").endMetadata()
                .withNewSpec().addNewContainer().withName("c1").withImage(image).endContainer().endSpec().build());
        spec.setUpdateStrategy(new CloneSetUpdateStrategy());
        cs.setSpec(spec);
        return change.apply(cs);
    }

    static CloneSet inPlaceIfPossible(CloneSet cs) {
        cs.getSpec().getUpdateStrategy().setType("InPlaceIfPossible");
        return cs;
    }

    static CloneSet lifecycle(CloneSet cs, LifecycleHook preNormal, LifecycleHook inPlaceUpdate) {
        Lifecycle l = new Lifecycle();
        l.setPreNormal(preNormal);
        l.setInPlaceUpdate(inPlaceUpdate);
        cs.getSpec().setLifecycle(l);
        return cs;
    }

    static LifecycleHook labels(String key) {
        LifecycleHook h = new LifecycleHook();
        h.setLabelsHandler(Map.of(key, "true"));
        return h;
    }

    static LifecycleHook finalizer(String name) {
        LifecycleHook h = new LifecycleHook();
        h.setFinalizersHandler(List.of(name));
        return h;
    }

    /** Old revision: image foo1. Every case's update revision is built from its own CloneSet. */
    static final ControllerRevision OLD_REVISION = CloneSetRevisions.newRevision(cloneSet("foo1", cs -> cs), 1, null);
    static final String OLD = OLD_REVISION.getMetadata().getName();

    /**
     * pod-0 at {@code revision}: running, ready, container c1 on image {@code image} reporting an image id, with the
     * InPlaceUpdateReady gate and condition (True).
     */
    static PodBuilder pod(String revision, String image) {
        return new PodBuilder().withNewMetadata().withName("pod-0").withNamespace("ns")
                .withCreationTimestamp(NOW.minusSeconds(7200).toString())
                .addToLabels(WellKnown.CONTROLLER_REVISION_HASH_LABEL, revision)
                .addToLabels(WellKnown.POD_TEMPLATE_HASH_LABEL, Pods.shortHash(revision))
                .addToLabels(WellKnown.CLONESET_INSTANCE_ID_LABEL, "id-0")
                .addToLabels("app", "demo").endMetadata()
                .withNewSpec().addNewReadinessGate().withConditionType(WellKnown.INPLACE_UPDATE_READY_CONDITION).endReadinessGate()
                .addNewContainer().withName("c1").withImage(image).endContainer().endSpec()
                .withNewStatus().withPhase("Running")
                .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime(NOW.minusSeconds(7000).toString()).endCondition()
                .addNewCondition().withType(WellKnown.INPLACE_UPDATE_READY_CONDITION).withStatus("True").endCondition()
                .addNewContainerStatus().withName("c1").withImage(image).withImageID(IMAGE_ID).withReady(true).endContainerStatus()
                .endStatus();
    }

    static PodBuilder withState(PodBuilder b, String state) {
        return b.editMetadata().addToLabels(WellKnown.LIFECYCLE_STATE_LABEL, state).endMetadata();
    }

    /** What the reconcile did to pod-0. */
    enum Outcome {
        NOTHING, TEMPLATE_HASH_FIXED, IN_PLACE_READY, IN_PLACE, IN_PLACE_CONTINUED, RECREATE, TO_NORMAL,
        TO_PREPARING_UPDATE
    }

    record UpdateCase(String name, CloneSet cs, ControllerRevision update, Pod pod, Set<Outcome> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static ControllerRevision revisionOf(CloneSet cs) {
        return CloneSetRevisions.newRevision(cs, 2, null);
    }

    /** pod-0 mid in-place update to {@code update}, started {@code ago} seconds before NOW, with a grace period. */
    static Pod inGrace(CloneSet cs, ControllerRevision update, long ago) {
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(OLD_REVISION, update,
                new InPlaceUpdateOptions(3630, true, null));
        Pod started = new InPlaceUpdater(RevisionLabels.cloneSet(false)).prepare(pod(OLD, "foo1").build(), spec,
                NOW.minusSeconds(ago));
        // OpenKruise's fixture predates the pod-template-hash label on this pod: the refresh adds it too.
        return new PodBuilder(started).editMetadata().removeFromLabels(WellKnown.POD_TEMPLATE_HASH_LABEL).endMetadata()
                .build();
    }

    static Stream<UpdateCase> updateCases() {
        List<UpdateCase> cases = new ArrayList<>();
        CloneSet plain = cloneSet("foo2", cs -> cs);
        ControllerRevision plainRev = revisionOf(plain);
        String plainName = plainRev.getMetadata().getName();

        cases.add(new UpdateCase("do nothing (but fix pod-template-hash)", plain, plainRev,
                pod(plainName, "foo2").editMetadata().removeFromLabels(WellKnown.POD_TEMPLATE_HASH_LABEL).endMetadata()
                        .build(), Set.of(Outcome.TEMPLATE_HASH_FIXED)));
        cases.add(new UpdateCase("normal update condition", plain, plainRev,
                pod(plainName, "foo2").editMetadata().removeFromLabels(WellKnown.POD_TEMPLATE_HASH_LABEL).endMetadata()
                        .editStatus().withConditions(pod(plainName, "foo2").buildStatus().getConditions().get(0))
                        .endStatus().build(), Set.of(Outcome.IN_PLACE_READY, Outcome.TEMPLATE_HASH_FIXED)));
        cases.add(new UpdateCase("recreate update 1", plain, plainRev, pod(OLD, "foo1").build(), Set.of(Outcome.RECREATE)));

        CloneSet withEnv = cloneSet("foo2", cs -> inPlaceIfPossible(cs));
        withEnv.getSpec().getTemplate().getSpec().getContainers().get(0).setEnv(List.of(new EnvVar("k", "v", null)));
        cases.add(new UpdateCase("recreate update 2 (an env change cannot be made in place)", withEnv,
                revisionOf(withEnv), pod(OLD, "foo1").build(), Set.of(Outcome.RECREATE)));

        CloneSet inPlace = cloneSet("foo2", CloneSetUpdateCasesTest::inPlaceIfPossible);
        ControllerRevision inPlaceRev = revisionOf(inPlace);
        cases.add(new UpdateCase("inplace update", inPlace, inPlaceRev, pod(OLD, "foo1").build(), Set.of(Outcome.IN_PLACE)));

        CloneSet grace = cloneSet("foo2", cs -> {
            inPlaceIfPossible(cs);
            cs.getSpec().getUpdateStrategy().setInPlaceUpdateStrategy(new dev.kruisevertx.api.common.InPlaceUpdateStrategy());
            cs.getSpec().getUpdateStrategy().getInPlaceUpdateStrategy().setGracePeriodSeconds(3630);
            return cs;
        });
        ControllerRevision graceRev = revisionOf(grace);
        cases.add(new UpdateCase("inplace update with grace period", grace, graceRev, pod(OLD, "foo1").build(),
                Set.of(Outcome.IN_PLACE)));
        cases.add(new UpdateCase("inplace update during grace period", grace, graceRev, inGrace(grace, graceRev, 3610),
                Set.of(Outcome.TEMPLATE_HASH_FIXED)));
        cases.add(new UpdateCase("inplace update continuously after grace period", grace, graceRev,
                inGrace(grace, graceRev, 3660), Set.of(Outcome.IN_PLACE_CONTINUED, Outcome.TEMPLATE_HASH_FIXED)));

        String preparingNormal = WellKnown.LIFECYCLE_STATE_PREPARING_NORMAL;
        cases.add(new UpdateCase("create: preparingNormal->Normal without hook", plain, plainRev,
                withState(pod(plainName, "foo2"), preparingNormal).build(), Set.of(Outcome.TO_NORMAL)));
        CloneSet preNormalLabel = cloneSet("foo2", cs -> lifecycle(cs, labels("preNormalHooked"), null));
        ControllerRevision preNormalLabelRev = revisionOf(preNormalLabel);
        String preNormalLabelName = preNormalLabelRev.getMetadata().getName();
        cases.add(new UpdateCase("create: preparingNormal->preparingNormal, preNormal does not hook", preNormalLabel,
                preNormalLabelRev, withState(pod(preNormalLabelName, "foo2"), preparingNormal).build(), Set.of()));
        cases.add(new UpdateCase("create: preparingNormal->Normal, preNormal does hook", preNormalLabel, preNormalLabelRev,
                withState(pod(preNormalLabelName, "foo2"), preparingNormal).editMetadata()
                        .addToLabels("preNormalHooked", "true").endMetadata().build(), Set.of(Outcome.TO_NORMAL)));
        CloneSet preNormalFinalizer = cloneSet("foo2", cs -> lifecycle(cs, finalizer("preNormalHooked"), null));
        cases.add(new UpdateCase("recreate update: preparingNormal, preNormal does not hook, specific delete",
                preNormalFinalizer, revisionOf(preNormalFinalizer), withState(pod(OLD, "foo1"), preparingNormal).build(),
                Set.of(Outcome.RECREATE)));
        CloneSet slb = cloneSet("foo2", cs -> lifecycle(inPlaceIfPossible(cs), finalizer("slb.com/online"), null));
        cases.add(new UpdateCase("in-place update: preparingNormal->Updating, preNormal & InPlaceUpdate does not hook",
                slb, revisionOf(slb), withState(pod(OLD, "foo1"), preparingNormal).build(), Set.of(Outcome.IN_PLACE)));
        CloneSet both = cloneSet("foo2", cs -> lifecycle(inPlaceIfPossible(cs), finalizer("slb/online"),
                finalizer("slb/online")));
        cases.add(new UpdateCase("in-place update: preparingNormal->Normal, preNormal & InPlaceUpdate does hook", both,
                revisionOf(both), withState(pod(OLD, "foo1"), preparingNormal).editMetadata()
                .addToFinalizers("slb/online").endMetadata().build(), Set.of(Outcome.TO_NORMAL)));
        cases.add(new UpdateCase("in-place update: Normal->preparingUpdate, preNormal & InPlaceUpdate does hook", both,
                revisionOf(both), withState(pod(OLD, "foo1"), WellKnown.LIFECYCLE_STATE_NORMAL).editMetadata()
                .addToFinalizers("slb/online").endMetadata().build(), Set.of(Outcome.TO_PREPARING_UPDATE)));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("updateCases")
    void update(UpdateCase tc) {
        String update = tc.update().getMetadata().getName();
        CloneSetPlan plan = CloneSetPlanner.plan(new CloneSetPlanner.State(tc.cs(), List.of(tc.pod()), List.of(), OLD,
                CloneSetRevisions.templateOf(OLD_REVISION), update, CloneSetPlanner.Options.defaults(), NOW, Set.of(),
                List.of(OLD_REVISION, tc.update())), new Random(1));
        assertTrue(plan.creates().isEmpty() && plan.deletes().isEmpty(), "no scaling: " + plan.summary());
        assertEquals(tc.expected(), outcomes(plan, tc.pod()), plan.summary());

        if (tc.expected().contains(Outcome.IN_PLACE)) {
            CloneSetPlan.InPlace u = plan.inPlace().get(0);
            assertEquals(Map.of("c1", "foo2"), u.spec().containerImages());
            assertEquals(update, u.spec().revision());
            int grace = tc.cs().getSpec().getUpdateStrategy().getInPlaceUpdateStrategy() == null ? 0
                    : tc.cs().getSpec().getUpdateStrategy().getInPlaceUpdateStrategy().getGracePeriodSeconds();
            assertEquals(grace, u.spec().graceSeconds());
        }
        if (tc.expected().contains(Outcome.IN_PLACE_CONTINUED)) {
            Pod after = plan.podWrites().get(0).after();
            assertEquals("foo2", after.getSpec().getContainers().get(0).getImage(), "the grace period is over");
            assertTrue(!Pods.annotations(after).containsKey(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION));
        }
        if (tc.name().contains("during grace period")) {
            assertTrue(!plan.requeueAfter().isZero() && plan.requeueAfter().getSeconds() <= 20,
                    "looks again when the grace period ends: " + plan.requeueAfter());
        }
    }

    static Set<Outcome> outcomes(CloneSetPlan plan, Pod pod) {
        Set<Outcome> out = new HashSet<>();
        for (CloneSetPlan.PodWrite w : plan.podWrites()) {
            boolean hashAdded = !Pods.labels(w.before()).containsKey(WellKnown.POD_TEMPLATE_HASH_LABEL)
                    && Pods.labels(w.after()).containsKey(WellKnown.POD_TEMPLATE_HASH_LABEL);
            if (hashAdded) {
                out.add(Outcome.TEMPLATE_HASH_FIXED);
                assertEquals(Pods.shortHash(Pods.revisionLabel(pod)),
                        Pods.labels(w.after()).get(WellKnown.POD_TEMPLATE_HASH_LABEL));
            }
            Pod withoutHash = new PodBuilder(w.after()).editMetadata()
                    .removeFromLabels(WellKnown.POD_TEMPLATE_HASH_LABEL).endMetadata().build();
            Pod beforeWithoutHash = new PodBuilder(w.before()).editMetadata()
                    .removeFromLabels(WellKnown.POD_TEMPLATE_HASH_LABEL).endMetadata().build();
            if (!withoutHash.equals(beforeWithoutHash)) {
                out.add(Outcome.IN_PLACE_CONTINUED);
            }
        }
        if (!plan.statusWrites().isEmpty()) {
            out.add(Outcome.IN_PLACE_READY);
        }
        if (!plan.inPlace().isEmpty()) {
            out.add(Outcome.IN_PLACE);
        }
        if (!plan.recreates().isEmpty()) {
            out.add(Outcome.RECREATE);
        }
        for (CloneSetPlan.LifecycleChange c : plan.lifecycle()) {
            out.add(switch (c.state()) {
                case NORMAL -> Outcome.TO_NORMAL;
                case PREPARING_UPDATE -> Outcome.TO_PREPARING_UPDATE;
                default -> throw new AssertionError("unexpected lifecycle change to " + c.state());
            });
        }
        return out;
    }

    @Test
    void pausedStillRefreshesButUpdatesNothing() {
        CloneSet cs = cloneSet("foo2", CloneSetUpdateCasesTest::inPlaceIfPossible);
        cs.getSpec().getUpdateStrategy().setPaused(true);
        ControllerRevision update = revisionOf(cs);
        Pod stale = pod(OLD, "foo1").editMetadata().removeFromLabels(WellKnown.POD_TEMPLATE_HASH_LABEL).endMetadata().build();
        CloneSetPlan refresh = CloneSetPlanner.plan(new CloneSetPlanner.State(cs, List.of(stale), List.of(), OLD,
                CloneSetRevisions.templateOf(OLD_REVISION), update.getMetadata().getName(),
                CloneSetPlanner.Options.defaults(), NOW, Set.of(), List.of(OLD_REVISION, update)), new Random(1));
        assertEquals(Set.of(Outcome.TEMPLATE_HASH_FIXED), outcomes(refresh, stale), refresh.summary());
        CloneSetPlan paused = CloneSetPlanner.plan(new CloneSetPlanner.State(cs, List.of(pod(OLD, "foo1").build()),
                List.of(), OLD, CloneSetRevisions.templateOf(OLD_REVISION), update.getMetadata().getName(),
                CloneSetPlanner.Options.defaults(), NOW, Set.of(), List.of(OLD_REVISION, update)), new Random(1));
        assertTrue(!paused.hasActions(), paused.summary());
    }

    @Test
    void aPodOfAnOlderRevisionStillInItsGracePeriodIsNotPickedAgain() {
        // A third revision arrives while pod-0 waits out the grace period of the second: OpenKruise leaves it be.
        CloneSet grace = cloneSet("foo2", cs -> {
            inPlaceIfPossible(cs);
            cs.getSpec().getUpdateStrategy().setInPlaceUpdateStrategy(new dev.kruisevertx.api.common.InPlaceUpdateStrategy());
            cs.getSpec().getUpdateStrategy().getInPlaceUpdateStrategy().setGracePeriodSeconds(3630);
            return cs;
        });
        ControllerRevision second = revisionOf(grace);
        Pod waiting = new PodBuilder(inGrace(grace, second, 10)).editMetadata()
                .addToLabels(WellKnown.POD_TEMPLATE_HASH_LABEL, Pods.shortHash(second.getMetadata().getName()))
                .endMetadata().build();
        CloneSet third = cloneSet("foo3", cs -> {
            cs.getSpec().setUpdateStrategy(grace.getSpec().getUpdateStrategy());
            return cs;
        });
        ControllerRevision thirdRev = CloneSetRevisions.newRevision(third, 3, null);
        CloneSetPlan plan = CloneSetPlanner.plan(new CloneSetPlanner.State(third, List.of(waiting), List.of(),
                second.getMetadata().getName(), CloneSetRevisions.templateOf(second), thirdRev.getMetadata().getName(),
                CloneSetPlanner.Options.defaults(), NOW, Set.of(), List.of(OLD_REVISION, second, thirdRev)), new Random(1));
        assertTrue(!plan.hasActions(), plan.summary());
    }

    // ---- TestSortUpdateIndexes ----------------------------------------------------------------------------------

    @Test
    void defaultUpdateOrderTakesPendingAndNotReadyPodsFirst() {
        List<Pod> pods = List.of(phase("Pending", true), phase("Pending", false), phase("Pending", false),
                phase("Running", true), phase("Running", false));
        assertEquals(List.of(1, 0, 4, 3), CloneSetPlanner.sortForUpdate(pods, List.of(0, 1, 3, 4), new CloneSetUpdateStrategy()));
    }

    static Pod phase(String phase, boolean ready) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewStatus().withPhase(phase)
                .endStatus();
        if (ready) {
            b.editStatus().addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus();
        }
        return b.build();
    }

    // ---- TestCalculateUpdateCount -------------------------------------------------------------------------------

    /**
     * @param partition      null for none
     * @param maxUnavailable null for the default 20%
     * @param maxSurge       null for none
     * @param ready          one letter per pod: R ready, - not ready
     * @param oldIndexes     pods at the current revision; the others are at the update revision
     * @param expected       pods let through when they are offered in listing order (OpenKruise's test feeds
     *                       {@code limitUpdateIndexes} unsorted)
     * @param expectedSorted pods let through by a whole update step, which sorts not-ready pods first (updating
     *                       a pod that is already unavailable costs nothing)
     */
    record CountCase(String name, IntOrString partition, IntOrString maxUnavailable, IntOrString maxSurge,
                     int replicas, String ready, List<Integer> oldIndexes, int expected, int expectedSorted) {
        CountCase(String name, IntOrString partition, IntOrString maxUnavailable, IntOrString maxSurge,
                  int replicas, String ready, List<Integer> oldIndexes, int expected) {
            this(name, partition, maxUnavailable, maxSurge, replicas, ready, oldIndexes, expected, expected);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static IntOrString i(int v) {
        return new IntOrString(v);
    }

    static Stream<CountCase> countCases() {
        List<Integer> all5 = List.of(0, 1, 2, 3, 4);
        return Stream.of(
                new CountCase("3 ready old pods, default 20%: one", null, null, null, 3, "RRR", List.of(0, 1, 2), 1),
                new CountCase("one old pod not ready uses the budget", null, null, null, 3, "R-R", List.of(0, 1, 2), 0, 1),
                new CountCase("the not-ready old pod itself goes first", null, null, null, 3, "-RR", List.of(0, 1, 2), 1),
                new CountCase("10 replicas, 9 old, 2 not ready, 20%", null, null, null, 10, "-RRRRRRR-R",
                        List.of(0, 1, 2, 3, 4, 5, 6, 7, 8), 1, 2),
                new CountCase("partition 2 of 3 with the new pod down", i(2), i(3), null, 3, "-RR", List.of(0, 1), 0),
                new CountCase("partition 2 of 8, 50%", i(2), new IntOrString("50%"), null, 8, "-R-RRRR-",
                        List.of(0, 1, 2, 3, 4, 5, 6), 3),
                new CountCase("all old unavailable, maxUnavailable 2: two", i(0), i(2), null, 5, "-----", all5, 2),
                new CountCase("all unavailable, 2 already updating: none", i(0), i(2), null, 5, "-----", List.of(0, 1, 2), 0),
                new CountCase("all unavailable, 1 updated and 1 updating: one", i(0), i(2), null, 5, "---R-",
                        List.of(0, 1, 2), 1),
                new CountCase("maxSurge 1, 1 creating: two", i(0), i(2), i(1), 5, "------", all5, 2),
                new CountCase("maxSurge 1, 1 updated and 1 updating: two", i(0), i(2), i(1), 5, "----R-",
                        List.of(0, 1, 2, 3), 2),
                new CountCase("maxSurge 1, 1 updated and 2 updating: one", i(0), i(2), i(1), 5, "----R-",
                        List.of(0, 1, 2), 1),
                new CountCase("maxSurge 1, 3 updating: none", i(0), i(2), i(1), 5, "------", List.of(0, 1, 2), 0),
                new CountCase("rollback while the new pods are unavailable", i(7), i(2), null, 8, "RRR-----",
                        List.of(0, 1, 2), 2),
                new CountCase("maxUnavailable 0, maxSurge 2, one surge pod in use", null, i(0), i(2), 4, "RRRRR",
                        List.of(0, 1), 1),
                new CountCase("maxUnavailable 0, maxSurge 2, both surge pods in use", null, i(0), i(2), 4, "RRRRRR",
                        List.of(0, 1, 2, 3), 2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("countCases")
    void updateCount(CountCase tc) {
        CloneSet cs = cloneSet("foo2", c -> c);
        cs.getSpec().setReplicas(tc.replicas());
        CloneSetUpdateStrategy us = cs.getSpec().getUpdateStrategy();
        us.setPartition(tc.partition());
        us.setMaxUnavailable(tc.maxUnavailable());
        us.setMaxSurge(tc.maxSurge());
        List<Pod> pods = new ArrayList<>();
        for (int k = 0; k < tc.ready().length(); k++) {
            String revision = tc.oldIndexes().contains(k) ? "current" : "updated";
            PodBuilder b = new PodBuilder().withNewMetadata().withName("pod-" + k).withNamespace("ns")
                    .addToLabels(WellKnown.CONTROLLER_REVISION_HASH_LABEL, revision)
                    .addToLabels(WellKnown.POD_TEMPLATE_HASH_LABEL, revision).endMetadata();
            if (tc.ready().charAt(k) == 'R') {
                b.withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True")
                        .endCondition().endStatus();
            }
            pods.add(b.build());
        }
        // OpenKruise's case runs with CloneSetPartitionRollback on; only the update step is measured.
        CloneSetPlanner.State s = new CloneSetPlanner.State(cs, pods, List.of(), "current", cs.getSpec().getTemplate(),
                "updated", new CloneSetPlanner.Options(true, false, false, true), NOW, Set.of());
        CloneSetDiff diff = CloneSetDiff.calculate(cs, pods, "current", "updated", true, null, NOW);
        List<Integer> waiting = new ArrayList<>();
        for (int k = 0; k < pods.size(); k++) {
            if (diff.updateNum() > 0 == tc.oldIndexes().contains(k)) {
                waiting.add(k);
            }
        }
        String target = diff.updateNum() > 0 ? "updated" : "current";
        assertEquals(tc.expected(), diff.updateNum() == 0 ? 0 : CloneSetPlanner.limit(s, diff, waiting, target, 0).size(),
                "in listing order: " + diff);

        CloneSetPlan plan = CloneSetPlanner.planUpdate(s, CloneSetPlan.builder(CloneSetPlan.Phase.SCALE, null).build("-"));
        assertEquals(tc.expectedSorted(), plan.recreates().size(), plan.summary());
        for (Pod p : plan.recreates()) {
            boolean rollback = plan.diff().updateNum() < 0;
            assertEquals(rollback, Pods.atRevision(p, "updated"), "pods move towards the target revision");
        }
    }
}
