package dev.kruisevertx.resourcedistribution;

import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionCondition;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionConditionType;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionStatus;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** OpenKruise v1.9.0's calculateNewStatus: counts, the six conditions in order, transition times. */
class DistributionStatusTest {
    static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");
    static final Instant T1 = Instant.parse("2026-11-24T10:05:00Z");

    @Test
    void allSucceededGivesSixFalseConditionsInOpenKruisesOrder() {
        ResourceDistributionStatus s = DistributionStatus.compute(null, 3, List.of(), 2L, T0);
        assertEquals(3, s.getDesired());
        assertEquals(3, s.getSucceeded());
        assertEquals(0, s.getFailed());
        assertEquals(2L, s.getObservedGeneration());
        assertEquals(List.of("GetResourceFailed", "CreateResourceFailed", "UpdateResourceFailed", "DeleteResourceFailed",
                "ConflictOccurred", "NamespaceNotExists"), s.getConditions().stream().map(ResourceDistributionCondition::getType).toList());
        for (ResourceDistributionCondition c : s.getConditions()) {
            assertEquals("False", c.getStatus());
            assertEquals("Succeeded", c.getReason());
            assertNull(c.getFailedNamespaces());
            assertEquals("2026-11-24T10:00:00Z", c.getLastTransitionTime());
        }
    }

    @Test
    void failuresLandInTheirConditionsAndOnlyTargetFailuresCountAsFailed() {
        ResourceDistributionStatus s = DistributionStatus.compute(null, 4, List.of(
                new DistributionStatus.Failure("ns-b", ResourceDistributionConditionType.CONFLICT_OCCURRED, "conflict", true),
                new DistributionStatus.Failure("ns-a", ResourceDistributionConditionType.CONFLICT_OCCURRED, "conflict", true),
                new DistributionStatus.Failure("ghost", ResourceDistributionConditionType.NAMESPACE_NOT_EXISTS, "gone", true),
                new DistributionStatus.Failure("old", ResourceDistributionConditionType.DELETE_RESOURCE_FAILED, "denied", false)),
                1L, T0);
        assertEquals(4, s.getDesired());
        assertEquals(1, s.getSucceeded());
        assertEquals(3, s.getFailed());
        ResourceDistributionCondition conflict = s.getConditions().get(4);
        assertEquals("True", conflict.getStatus());
        assertEquals("conflict", conflict.getReason());
        assertEquals(List.of("ns-a", "ns-b"), conflict.getFailedNamespaces());
        assertEquals(List.of("ghost"), s.getConditions().get(5).getFailedNamespaces());
        assertEquals(List.of("old"), s.getConditions().get(3).getFailedNamespaces());
        assertEquals("False", s.getConditions().get(1).getStatus());
    }

    @Test
    void transitionTimeMovesOnlyWhenTheStatusChanges() {
        ResourceDistributionStatus first = DistributionStatus.compute(null, 1, List.of(
                new DistributionStatus.Failure("ns-a", ResourceDistributionConditionType.CONFLICT_OCCURRED, "c", true)),
                1L, T0);
        ResourceDistributionStatus second = DistributionStatus.compute(first, 1, List.of(), 1L, T1);
        assertEquals("2026-11-24T10:05:00Z", second.getConditions().get(4).getLastTransitionTime());
        assertEquals("2026-11-24T10:00:00Z", second.getConditions().get(0).getLastTransitionTime());
        assertEquals(1, second.getSucceeded());
    }
}
