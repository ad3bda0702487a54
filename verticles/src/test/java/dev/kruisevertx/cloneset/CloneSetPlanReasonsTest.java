package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.controller.reason.BlockReason;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.Set;

import static dev.kruisevertx.cloneset.CloneSetUpdateCasesTest.NOW;
import static dev.kruisevertx.cloneset.CloneSetUpdateCasesTest.OLD;
import static dev.kruisevertx.cloneset.CloneSetUpdateCasesTest.OLD_REVISION;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The reasons the pure CloneSet decision gives for pods it holds back (what kubectl kruise why prints). */
class CloneSetPlanReasonsTest {
    static List<String> reasons(CloneSet cs, Pod pod) {
        ControllerRevision update = CloneSetUpdateCasesTest.revisionOf(cs);
        CloneSetPlan plan = CloneSetPlanner.plan(new CloneSetPlanner.State(cs, List.of(pod), List.of(), OLD,
                CloneSetRevisions.templateOf(OLD_REVISION), update.getMetadata().getName(),
                CloneSetPlanner.Options.defaults(), NOW, Set.of(), List.of(OLD_REVISION, update)), new Random(1));
        return plan.reasons().stream().map(BlockReason::text).toList();
    }

    @Test
    void pausedNamesThePodsThatWait() {
        CloneSet cs = CloneSetUpdateCasesTest.cloneSet("foo2", c -> c);
        cs.getSpec().getUpdateStrategy().setPaused(true);
        assertEquals(List.of("Paused: updateStrategy.paused is true: 1 pod waits for the update"),
                reasons(cs, CloneSetUpdateCasesTest.pod(OLD, "foo1").build()));
    }

    @Test
    void partitionCountsThePodsItKeeps() {
        CloneSet cs = CloneSetUpdateCasesTest.cloneSet("foo2", c -> c);
        cs.getSpec().getUpdateStrategy().setPartition(new IntOrString(1));
        assertEquals(List.of("Partition: updateStrategy.partition 1 keeps 1 pod at the current revision"),
                reasons(cs, CloneSetUpdateCasesTest.pod(OLD, "foo1").build()));
    }

    @Test
    void theInPlaceUpdateHookNamesTheLabelItWaitsFor() {
        CloneSet cs = CloneSetUpdateCasesTest.lifecycle(CloneSetUpdateCasesTest.cloneSet("foo2",
                CloneSetUpdateCasesTest::inPlaceIfPossible), null, CloneSetUpdateCasesTest.labels("example.com/hold"));
        Pod held = CloneSetUpdateCasesTest.withState(CloneSetUpdateCasesTest.pod(OLD, "foo1"), "PreparingUpdate")
                .editMetadata().addToLabels("example.com/hold", "true").endMetadata().build();
        assertEquals(List.of("LifecycleHook: pod pod-0 waits in PreparingUpdate for the inPlaceUpdate hook to let go "
                + "of label example.com/hold=true"), reasons(cs, held));
    }

    @Test
    void anUnavailablePodIsUpdatedWithoutAReason() {
        CloneSet cs = CloneSetUpdateCasesTest.cloneSet("foo2", c -> c);
        cs.getSpec().setReplicas(1);
        cs.getSpec().getUpdateStrategy().setMaxUnavailable(new IntOrString(1));
        Pod notReady = CloneSetUpdateCasesTest.pod(OLD, "foo1").editStatus().editFirstCondition().withStatus("False")
                .endCondition().endStatus().build();
        // An unavailable pod may be updated (it costs no availability): nothing holds it.
        assertEquals(List.of(), reasons(cs, notReady));
    }
}
