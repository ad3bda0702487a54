package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetConditionType;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.kruisevertx.cloneset.CloneSetDiffTest.NEW;
import static dev.kruisevertx.cloneset.CloneSetDiffTest.NOW;
import static dev.kruisevertx.cloneset.CloneSetDiffTest.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class CloneSetStatusCalculatorTest {
    static Pod readyFor(String revision, int seconds) {
        Pod p = CloneSetPlannerTest.pod("x" + seconds + revision.hashCode(), revision, true);
        return new PodBuilder(p).editStatus().editFirstCondition()
                .withLastTransitionTime(NOW.minusSeconds(seconds).toString()).endCondition().endStatus().build();
    }

    @Test
    void countsPodsByReadinessAvailabilityAndRevision() {
        CloneSet cs = CloneSetPlannerTest.cs(4, 1);
        cs.getMetadata().setGeneration(7L);
        cs.getSpec().setMinReadySeconds(30);
        cs.getSpec().getUpdateStrategy().setPartition(new IntOrString("50%"));
        List<Pod> pods = List.of(readyFor(NEW, 60), readyFor(NEW, 5), readyFor(OLD, 60),
                CloneSetPlannerTest.pod("nr", OLD, false));
        CloneSetStatus s = CloneSetStatusCalculator.calculate(cs, pods, OLD, NEW, 2, null, null, NOW);
        assertEquals(4, s.getReplicas());
        assertEquals(3, s.getReadyReplicas());
        assertEquals(2, s.getAvailableReplicas());
        assertEquals(2, s.getUpdatedReplicas());
        assertEquals(2, s.getUpdatedReadyReplicas());
        assertEquals(1, s.getUpdatedAvailableReplicas());
        assertEquals(2, s.getExpectedUpdatedReplicas());
        assertEquals(OLD, s.getCurrentRevision());
        assertEquals(NEW, s.getUpdateRevision());
        assertEquals(7L, s.getObservedGeneration());
        assertEquals(2, s.getCollisionCount());
        assertEquals("app=cs", s.getLabelSelector());
    }

    @Test
    void updateRevisionBecomesCurrentWhenEveryWantedPodIsAtIt() {
        CloneSet cs = CloneSetPlannerTest.cs(2, 1);
        List<Pod> pods = List.of(CloneSetPlannerTest.pod("a", NEW, false), CloneSetPlannerTest.pod("b", NEW, false));
        assertEquals(NEW, CloneSetStatusCalculator.calculate(cs, pods, OLD, NEW, null, null, null, NOW).getCurrentRevision());
        cs.getSpec().setReplicas(3);
        assertEquals(OLD, CloneSetStatusCalculator.calculate(cs, pods, OLD, NEW, null, null, null, NOW).getCurrentRevision());
    }

    @Test
    void failureConditionIsSetKeptAndCleared() {
        CloneSet cs = CloneSetPlannerTest.cs(1, 1);
        CloneSetStatus failed = CloneSetStatusCalculator.calculate(cs, List.of(), OLD, NEW, null,
                CloneSetConditionType.FAILED_SCALE, "quota exceeded", NOW);
        assertEquals(1, failed.getConditions().size());
        assertEquals("FailedScale", failed.getConditions().get(0).getType());
        assertEquals("True", failed.getConditions().get(0).getStatus());
        cs.setStatus(failed);
        CloneSetStatus again = CloneSetStatusCalculator.calculate(cs, List.of(), OLD, NEW, null,
                CloneSetConditionType.FAILED_SCALE, "quota exceeded", NOW.plusSeconds(60));
        assertEquals(NOW.toString(), again.getConditions().get(0).getLastTransitionTime(), "same failure keeps its time");
        CloneSetStatus otherStep = CloneSetStatusCalculator.calculate(cs, List.of(), OLD, NEW, null,
                CloneSetConditionType.FAILED_UPDATE, null, NOW);
        assertEquals(1, otherStep.getConditions().size(), "an update success does not clear a scale failure");
        CloneSetStatus cleared = CloneSetStatusCalculator.calculate(cs, List.of(), OLD, NEW, null,
                CloneSetConditionType.FAILED_SCALE, null, NOW);
        assertNull(cleared.getConditions());
    }

    @Test
    void selectorStringIsSortedLikeKubectl() {
        assertEquals("a=1,b=2,env in (prod,qa),!gone", CloneSetStatusCalculator.selectorString(new LabelSelectorBuilder()
                .addToMatchLabels("b", "2").addToMatchLabels("a", "1")
                .addNewMatchExpression().withKey("env").withOperator("In").withValues("qa", "prod").endMatchExpression()
                .addNewMatchExpression().withKey("gone").withOperator("DoesNotExist").endMatchExpression().build()));
    }
}
