package dev.kruisevertx.api.common;

import dev.kruisevertx.api.apps.v1alpha1.CloneSetConditionType;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestFailurePolicy;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;
import dev.kruisevertx.api.apps.v1beta1.PersistentVolumeClaimRetentionPolicyType;
import dev.kruisevertx.api.apps.v1beta1.PodManagementPolicyType;
import dev.kruisevertx.api.apps.v1beta1.PodUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetConditionType;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategyType;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every policy enum of the model spells its values as OpenKruise v1.9.0's Go constants, and parses leniently. */
class WireEnumTest {
    /** The Go constants of OpenKruise v1.9.0 (and Kubernetes' apps/v1 for the StatefulSet types it reuses). */
    private static Map<Class<? extends WireEnum>, List<String>> openKruiseValues() {
        Map<Class<? extends WireEnum>, List<String>> m = new LinkedHashMap<>();
        m.put(CloneSetUpdateStrategyType.class, List.of("ReCreate", "InPlaceIfPossible", "InPlaceOnly"));
        m.put(CloneSetConditionType.class, List.of("FailedScale", "FailedUpdate"));
        m.put(ContainerRecreateRequestPhase.class, List.of("Pending", "Recreating", "Succeeded", "Failed",
                "Completed"));
        m.put(ContainerRecreateRequestFailurePolicy.class, List.of("Fail", "Ignore"));
        m.put(PodManagementPolicyType.class, List.of("OrderedReady", "Parallel"));
        m.put(StatefulSetUpdateStrategyType.class, List.of("RollingUpdate", "OnDelete"));
        m.put(dev.kruisevertx.api.apps.v1beta1.DaemonSetUpdateStrategyType.class, List.of("RollingUpdate", "OnDelete"));
        m.put(dev.kruisevertx.api.apps.v1beta1.RollingUpdateType.class, List.of("Standard", "InPlaceIfPossible"));
        m.put(PodUpdateStrategyType.class, List.of("ReCreate", "InPlaceIfPossible", "InPlaceOnly"));
        m.put(PersistentVolumeClaimRetentionPolicyType.class, List.of("Retain", "Delete"));
        m.put(VolumeClaimUpdateStrategyType.class, List.of("OnDelete", "OnPodRollingUpdate"));
        m.put(StatefulSetConditionType.class, List.of("FailedCreatePod", "FailedUpdatePod"));
        m.put(dev.kruisevertx.api.apps.v1beta1.ConcurrencyPolicy.class, List.of("Allow", "Forbid", "Replace"));
        m.put(dev.kruisevertx.api.apps.v1beta1.TemplateKind.class, List.of("Job", "BroadcastJob", "ImageListPullJob"));
        m.put(dev.kruisevertx.api.apps.v1beta1.CompletionPolicyType.class, List.of("Always", "Never"));
        m.put(dev.kruisevertx.api.apps.v1beta1.FailurePolicyType.class, List.of("Continue", "FailFast", "Pause"));
        m.put(dev.kruisevertx.api.apps.v1beta1.BroadcastJobPhase.class, List.of("completed", "running", "paused",
                "failed"));
        m.put(dev.kruisevertx.api.apps.v1beta1.JobConditionType.class, List.of("Complete", "Failed"));
        m.put(dev.kruisevertx.api.apps.v1beta1.PodInjectPolicyType.class,
                List.of("BeforeAppContainer", "AfterAppContainer"));
        m.put(dev.kruisevertx.api.apps.v1beta1.ShareVolumePolicyType.class, List.of("enabled", "disabled"));
        m.put(dev.kruisevertx.api.apps.v1beta1.SidecarContainerUpgradeType.class, List.of("ColdUpgrade", "HotUpgrade"));
        m.put(dev.kruisevertx.api.apps.v1beta1.TargetContainersModeType.class, List.of("sum", "max"));
        m.put(dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectRevisionPolicy.class, List.of("Always", "Partial"));
        m.put(dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategyType.class, List.of("NotUpdate", "RollingUpdate"));
        m.put(dev.kruisevertx.api.apps.v1beta1.SidecarSetPatchPolicyType.class,
                List.of("Retain", "Overwrite", "MergePatchJson"));
        m.put(dev.kruisevertx.api.policy.v1alpha1.PubOperation.class, List.of("UPDATE", "DELETE", "EVICT", "RESIZE"));
        m.put(dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentUpdateStrategyType.class, List.of("Manual"));
        m.put(dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentScheduleStrategyType.class, List.of("Adaptive", "Fixed"));
        m.put(dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentConditionType.class, List.of("SubsetProvisioned",
                "SubsetUpdated", "SubsetFailure", "UnitedDeploymentUpdated"));
        m.put(dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetConditionType.class, List.of("Schedulable"));
        m.put(dev.kruisevertx.api.apps.v1alpha1.EphemeralJobPhase.class, List.of("Succeeded", "Failed", "Waiting",
                "Running", "Paused", "Error", "Unknown"));
        m.put(dev.kruisevertx.api.apps.v1alpha1.EphemeralJobConditionType.class, List.of("JobSucceeded", "JobFailed",
                "JobError", "Initialized", "MatchedEmpty"));
        m.put(dev.kruisevertx.api.apps.v1beta1.ImagePullPolicy.class, List.of("Always", "IfNotPresent"));
        m.put(dev.kruisevertx.api.apps.v1beta1.ImagePullPhase.class, List.of("Waiting", "Pulling", "Succeeded",
                "Failed"));
        m.put(LifecycleState.class, List.of("PreparingNormal", "Normal", "PreparingUpdate", "Updating", "Updated",
                "PreparingDelete"));
        m.put(dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionConditionType.class, List.of("GetResourceFailed",
                "CreateResourceFailed", "UpdateResourceFailed", "DeleteResourceFailed", "ConflictOccurred",
                "NamespaceNotExists"));
        m.put(dev.kruisevertx.api.apps.v1alpha1.ProbeState.class, List.of("Succeeded", "Failed", "Unknown"));
        m.put(dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateRetentionPolicyType.class,
                List.of("WhenScaled", "WhenDeleted"));
        return m;
    }

    @Test
    void wireStringsAreOpenKruisesInDeclarationOrder() {
        openKruiseValues().forEach((type, expected) ->
                assertEquals(expected, valuesOf(type), type.getSimpleName()));
    }

    @Test
    void everyConstantRoundTripsThroughItsWireString() {
        openKruiseValues().keySet().forEach(WireEnumTest::assertRoundTrips);
    }

    @Test
    void unknownMissingAndMisspelledValuesParseToEmpty() {
        for (String hostile : new String[]{null, "", "parallel", "PARALLEL", " Parallel", "Parallel ",
                "Parallel\u0000", "Paral\u200Blel", "OrderedReady,Parallel", "x".repeat(100_000)}) {
            assertEquals(Optional.empty(), PodManagementPolicyType.fromValue(hostile), String.valueOf(hostile));
            assertEquals(Optional.empty(), WireEnum.parse(PodManagementPolicyType.class, hostile));
        }
        // The Java constant name is not a wire string.
        assertEquals(Optional.empty(), PodUpdateStrategyType.fromValue("IN_PLACE_ONLY"));
        assertEquals(Optional.empty(), CloneSetUpdateStrategyType.fromValue("RECREATE"));
        // A value of a sibling field is not one of this field's.
        assertEquals(Optional.empty(), StatefulSetUpdateStrategyType.fromValue("OnPodRollingUpdate"));
        // OpenKruise's legacy CloneSet OnDelete is refused by its webhook too, so it is no constant here.
        assertEquals(Optional.empty(), CloneSetUpdateStrategyType.fromValue("OnDelete"));
    }

    @Test
    void inPlaceMeansEitherInPlacePolicy() {
        assertFalse(PodUpdateStrategyType.RECREATE.inPlace());
        assertTrue(PodUpdateStrategyType.IN_PLACE_IF_POSSIBLE.inPlace());
        assertTrue(PodUpdateStrategyType.IN_PLACE_ONLY.inPlace());
        assertFalse(CloneSetUpdateStrategyType.RECREATE.inPlace());
        assertTrue(CloneSetUpdateStrategyType.IN_PLACE_IF_POSSIBLE.inPlace());
        assertTrue(CloneSetUpdateStrategyType.IN_PLACE_ONLY.inPlace());
    }

    @Test
    void aConstantPutIntoAPatchBodyIsWrittenAsItsWireString() {
        Map<String, Object> patch = new LinkedHashMap<>();
        patch.put("phase", ContainerRecreateRequestPhase.COMPLETED);
        patch.put("policy", PodManagementPolicyType.ORDERED_READY);
        assertEquals("{\"phase\":\"Completed\",\"policy\":\"OrderedReady\"}", ApiJson.toJson(patch));
    }

    private static <E extends Enum<E> & WireEnum> List<String> valuesOf(Class<? extends WireEnum> type) {
        @SuppressWarnings("unchecked")
        Class<E> e = (Class<E>) type;
        return WireEnum.values(e);
    }

    private static <E extends Enum<E> & WireEnum> void assertRoundTrips(Class<? extends WireEnum> type) {
        @SuppressWarnings("unchecked")
        Class<E> e = (Class<E>) type;
        for (E constant : e.getEnumConstants()) {
            assertSame(constant, WireEnum.parse(e, constant.value()).orElseThrow(), constant.name());
            assertEquals(Optional.of(constant), ownFromValue(e, constant.value()), constant.name());
            assertEquals(constant.value(), constant.toString());
        }
        assertEquals(Optional.empty(), ownFromValue(e, "unknown"), type.getSimpleName());
    }

    /** Each enum's own {@code fromValue}, which its callers use. */
    private static Optional<?> ownFromValue(Class<?> type, String value) {
        try {
            return (Optional<?>) type.getMethod("fromValue", String.class).invoke(null, value);
        } catch (ReflectiveOperationException ex) {
            throw new AssertionError(type.getSimpleName() + " has no public static fromValue(String)", ex);
        }
    }
}
