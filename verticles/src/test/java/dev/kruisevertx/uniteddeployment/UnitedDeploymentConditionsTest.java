package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentCondition;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentStatus;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetStatus;
import dev.kruisevertx.api.common.ApiJson;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** OpenKruise's UnitedDeployment status conditions and the status steps around the calculator. */
class UnitedDeploymentConditionsTest {
    static final Instant T0 = Instant.parse("2026-01-01T12:00:00.700Z");
    static final Instant T1 = T0.plusSeconds(60);

    static UnitedDeployment ud(String yaml) {
        return ApiJson.serialization().convertValue(readYaml(yaml), UnitedDeployment.class);
    }

    static Object readYaml(String yaml) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
                    .readTree(yaml);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static final String SPEC = """
            apiVersion: apps.kruise.io/v1alpha1
            kind: UnitedDeployment
            metadata: {name: web, namespace: ns}
            spec:
              replicas: 4
              selector: {matchLabels: {app: web}}
              template: {cloneSetTemplate: {metadata: {labels: {app: web}}}}
              topology:
                scheduleStrategy: {type: Adaptive, adaptive: {reserveUnschedulablePods: %s}}
                subsets: [{name: a}, {name: b}]
            %s
            """;

    static UnitedDeploymentPlan plan(boolean creates) {
        return new UnitedDeploymentPlan(Map.of("a", 2, "b", 2), Map.of("a", 0, "b", 0),
                creates ? List.of(new UnitedDeploymentPlan.Create("b", 2, 0)) : List.of(), List.of(), List.of(), null);
    }

    static UnitedDeploymentCondition get(UnitedDeploymentStatus s, String type) {
        return UnitedDeploymentConditions.get(s, type);
    }

    @Test
    void initStatusAddsEverySubsetAndInReservationModeMarksSubsetsAddedLater() {
        UnitedDeploymentStatus fresh = UnitedDeploymentConditions.initStatus(ud(SPEC.formatted("true", "")), T0);
        assertEquals(List.of("a", "b"), fresh.getSubsetStatuses().stream().map(UnitedDeploymentSubsetStatus::getName).toList());
        fresh.getSubsetStatuses().forEach(ss -> assertNull(ss.getConditions(), "the first subsets are not marked"));

        UnitedDeployment later = ud(SPEC.formatted("true", "status: {subsetStatuses: [{name: a}]}"));
        UnitedDeploymentStatus s = UnitedDeploymentConditions.initStatus(later, T0);
        UnitedDeploymentSubsetStatus b = s.getSubsetStatuses().get(1);
        assertEquals("b", b.getName());
        assertEquals("False", b.getConditions().get(0).getStatus());
        assertEquals("created", b.getConditions().get(0).getReason());
        assertEquals("newly-created subsets in reservation strategy", b.getConditions().get(0).getMessage());
        assertEquals("2026-01-01T12:00:00Z", b.getConditions().get(0).getLastTransitionTime());
        assertNull(later.getStatus().getSubsetStatuses().get(0).getConditions(), "the stored status is not changed");
        assertEquals(1, later.getStatus().getSubsetStatuses().size());

        UnitedDeploymentStatus plain = UnitedDeploymentConditions.initStatus(
                ud(SPEC.formatted("false", "status: {subsetStatuses: [{name: a}]}")), T0);
        assertNull(plain.getSubsetStatuses().get(1).getConditions(), "only the reservation mode marks");
    }

    @Test
    void updatedFollowsTheCurrentRevisionAndKeepsItsTimeWhileUnchanged() {
        UnitedDeploymentStatus s = new UnitedDeploymentStatus();
        UnitedDeploymentConditions.setUpdated(s, "web-1", T0);
        UnitedDeploymentCondition c = get(s, UnitedDeploymentCondition.UNITED_DEPLOYMENT_UPDATED);
        assertEquals("True", c.getStatus());
        assertEquals("UnitedDeploymentRevisionUpdated", c.getReason());
        assertEquals("updated to revision web-1", c.getMessage());
        s.setCurrentRevision("web-1");
        UnitedDeploymentConditions.setUpdated(s, "web-2", T1);
        c = get(s, UnitedDeploymentCondition.UNITED_DEPLOYMENT_UPDATED);
        assertEquals("False", c.getStatus());
        assertEquals("UnitedDeploymentRevisionUpdating", c.getReason());
        assertEquals("updating to revision web-2", c.getMessage());
        assertEquals("2026-01-01T12:01:00Z", c.getLastTransitionTime());
        UnitedDeploymentConditions.setUpdated(s, "web-2", T1.plusSeconds(30));
        assertEquals("2026-01-01T12:01:00Z", get(s, UnitedDeploymentCondition.UNITED_DEPLOYMENT_UPDATED)
                .getLastTransitionTime(), "same status and reason: no new transition");
        assertEquals(1, s.getConditions().size());
    }

    @Test
    void finishSetsProvisionedOnlyAfterCreatesOrDeletesAndRemovesSubsetFailure() {
        UnitedDeploymentStatus s = new UnitedDeploymentStatus();
        UnitedDeploymentConditions.set(s, UnitedDeploymentCondition.SUBSET_FAILURE, "True", "Error", "x", T0);
        UnitedDeploymentConditions.finish(s, plan(false), false, Map.of(), T0);
        assertNull(get(s, UnitedDeploymentCondition.SUBSET_PROVISIONED));
        assertNull(get(s, UnitedDeploymentCondition.SUBSET_FAILURE));
        UnitedDeploymentCondition updated = get(s, UnitedDeploymentCondition.SUBSET_UPDATED);
        assertEquals("True", updated.getStatus());
        assertNull(updated.getReason());
        UnitedDeploymentConditions.finish(s, plan(true), false, Map.of(), T1);
        assertEquals("True", get(s, UnitedDeploymentCondition.SUBSET_PROVISIONED).getStatus());
        assertEquals("2026-01-01T12:00:00Z", get(s, UnitedDeploymentCondition.SUBSET_UPDATED).getLastTransitionTime());
    }

    @Test
    void reservationModeCountsReservedPodsApartAndNarrowsTheSelector() {
        UnitedDeploymentStatus s = new UnitedDeploymentStatus();
        s.setReplicas(6);
        s.setLabelSelector("app=web");
        UnitedDeploymentConditions.finish(s, plan(false), true, Map.of("a", 2, "b", 0), T0);
        assertEquals(4, s.getReplicas());
        assertEquals(2, s.getReservedPods());
        assertEquals(2, UnitedDeploymentConditions.subsetStatus(s, "a").getReservedPods());
        assertEquals("app=web,apps.kruise.io/united-deployment-reserved-pod=false", s.getLabelSelector());
    }

    @Test
    void finishTurnsUpdatedTrueInTheWriteThatMovesTheCurrentRevision() {
        UnitedDeploymentStatus s = new UnitedDeploymentStatus();
        s.setCurrentRevision("web-1");
        UnitedDeploymentConditions.setUpdated(s, "web-2", T0);
        assertEquals("False", get(s, UnitedDeploymentCondition.UNITED_DEPLOYMENT_UPDATED).getStatus());
        // The calculator moved currentRevision: every pod is updated and ready.
        s.setCurrentRevision("web-2");
        dev.kruisevertx.api.apps.v1alpha1.UpdateStatus u = new dev.kruisevertx.api.apps.v1alpha1.UpdateStatus();
        u.setUpdatedRevision("web-2");
        s.setUpdateStatus(u);
        UnitedDeploymentConditions.finish(s, plan(false), false, Map.of(), T1);
        UnitedDeploymentCondition c = get(s, UnitedDeploymentCondition.UNITED_DEPLOYMENT_UPDATED);
        assertEquals("True", c.getStatus());
        assertEquals("updated to revision web-2", c.getMessage());
        assertEquals("2026-01-01T12:01:00Z", c.getLastTransitionTime());
    }
}
