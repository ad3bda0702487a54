package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentStatus;
import dev.kruisevertx.controller.reason.BlockReason;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What {@code kubectl kruise why ud/NAME} prints for each rule the UnitedDeployment controller holds pods by. */
class UnitedDeploymentReasonsTest {
    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    static UnitedDeployment ud(boolean reserve, String partitions) {
        return UnitedDeploymentConditionsTest.ud("""
                apiVersion: apps.kruise.io/v1alpha1
                kind: UnitedDeployment
                metadata: {name: web, namespace: ns}
                spec:
                  replicas: 4
                  selector: {matchLabels: {app: web}}
                  template: {cloneSetTemplate: {metadata: {labels: {app: web}}}}
                  updateStrategy: {type: Manual, manualUpdate: {partitions: %s}}
                  topology:
                    scheduleStrategy: {type: Adaptive, adaptive: {rescheduleCriticalSeconds: 5, unschedulableDuration: 60,
                      reserveUnschedulablePods: %s}}
                    subsets: [{name: a, maxReplicas: 2}, {name: b}]
                """.formatted(partitions, reserve));
    }

    static List<String> texts(List<BlockReason> reasons) {
        return reasons.stream().map(BlockReason::text).toList();
    }

    static SubsetWorkload workload(String subset, String revision, int spec, int ready, int updated) {
        return new SubsetWorkload("web-" + subset + "-x", SubsetWorkloads.Kind.CLONE_SET, subset, revision, "", spec, 0,
                spec, ready, updated, updated);
    }

    @Test
    void anUnschedulableSubsetIsHeldToItsReadyPodsUntilItsConditionExpires() {
        UnitedDeployment ud = ud(false, "{}");
        UnitedDeploymentStatus status = UnitedDeploymentConditions.initStatus(ud, NOW);
        List<SubsetWorkload> workloads = List.of(workload("a", "ud-1", 2, 1, 2), workload("b", "ud-1", 2, 2, 2));
        UnitedDeploymentDecision d = UnitedDeploymentDecision.decide(ud, new UnitedDeploymentSnapshot(List.of(), List.of(), List.of()),
                "ud-1", workloads, w -> w.startsWith("web-a") ? List.of(AdaptiveSchedulingTest.unschedulable("p",
                null, 10)) : List.of(), NOW);
        assertEquals(status.getSubsetStatuses().size(), d.status().getSubsetStatuses().size());
        assertEquals(Map.of("a", 1, "b", 3), d.plan().nextReplicas());
        assertEquals(List.of("Unschedulable: subset a is unschedulable (1 pod pending longer than "
                + "rescheduleCriticalSeconds 5): held at its 1 ready, the rest goes to the other subsets; tried again at "
                + "2026-01-01T12:01:00Z (unschedulableDuration 60s)"), texts(d.reasons()));
        // b grows, so its new pods are looked at again after rescheduleCriticalSeconds (before a's 60s hold ends).
        assertEquals(java.time.Duration.ofSeconds(5), d.recheckIn());
    }

    @Test
    void reservedPodsAndManualPartitionsAreNamed() {
        UnitedDeployment ud = ud(true, "{a: 1, b: 3}");
        List<SubsetWorkload> workloads = List.of(workload("a", "ud-1", 2, 0, 0), workload("b", "ud-1", 2, 2, 0));
        UnitedDeploymentDecision d = UnitedDeploymentDecision.decide(ud, new UnitedDeploymentSnapshot(List.of(), List.of(), List.of()),
                "ud-1", workloads, w -> w.startsWith("web-a") ? List.of(AdaptiveSchedulingTest.unschedulable("p1",
                null, 10), AdaptiveSchedulingTest.unschedulable("p2", "true", 10)) : List.of(), NOW);
        assertEquals(Map.of("a", 2, "b", 4), d.plan().nextReplicas(), "two temporary pods in b");
        assertEquals(List.of("Unschedulable: subset a has 2 pods reserved (not running within rescheduleCriticalSeconds 5,"
                        + " or Ready for less than unschedulableDuration 60s): temporary pods stand in for them in the "
                        + "other subsets",
                "Partition: updateStrategy.manualUpdate.partitions.a 1 keeps 1 pod at the current revision",
                "Partition: updateStrategy.manualUpdate.partitions.b 3 keeps 2 pods at the current revision"),
                texts(d.reasons()));
    }

    @Test
    void aFixedStrategyWithoutPartitionsHasNoReasons() {
        UnitedDeployment ud = UnitedDeploymentConditionsTest.ud("""
                apiVersion: apps.kruise.io/v1alpha1
                kind: UnitedDeployment
                metadata: {name: web, namespace: ns}
                spec:
                  replicas: 4
                  selector: {matchLabels: {app: web}}
                  template: {cloneSetTemplate: {metadata: {labels: {app: web}}}}
                  topology: {subsets: [{name: a}, {name: b}]}
                """);
        UnitedDeploymentDecision d = UnitedDeploymentDecision.decide(ud, new UnitedDeploymentSnapshot(List.of(), List.of(), List.of()),
                "ud-1", List.of(workload("a", "ud-1", 2, 2, 2)), w -> {
                    throw new AssertionError("the Fixed strategy reads no pods");
                }, NOW);
        assertEquals(List.of(), d.reasons());
        assertEquals(null, d.adaptive());
        assertEquals(null, d.recheckIn());
    }
}
