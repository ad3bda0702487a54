package dev.kruisevertx.api.common;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestFailurePolicy;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;
import dev.kruisevertx.api.apps.v1beta1.PersistentVolumeClaimRetentionPolicyType;
import dev.kruisevertx.api.apps.v1beta1.PodManagementPolicyType;
import dev.kruisevertx.api.apps.v1beta1.PodUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategyType;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Policy fields stay strings in the model: a value no enum knows survives a read and a write unchanged (so a newer
 * OpenKruise's object, or a bad one the webhook must quote back, loses nothing), the typed accessors see it as
 * empty, and the accessors add nothing to the JSON.
 */
class PolicyFieldsRoundTripTest {
    private static final String STATEFULSET = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","metadata":{"name":"s","namespace":"ns"},
             "spec":{"podManagementPolicy":"%s",
               "updateStrategy":{"type":"%s","rollingUpdate":{"podUpdatePolicy":"%s"}},
               "persistentVolumeClaimRetentionPolicy":{"whenDeleted":"%s","whenScaled":"%s"},
               "volumeClaimUpdateStrategy":{"type":"%s"}}}""";
    private static final String CLONESET = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","metadata":{"name":"c","namespace":"ns"},
             "spec":{"updateStrategy":{"type":"%s"}}}""";
    private static final String CRR = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"ContainerRecreateRequest",
             "metadata":{"name":"r","namespace":"ns"},
             "spec":{"podName":"p","containers":[{"name":"app"}],"strategy":{"failurePolicy":"%s"}},
             "status":{"phase":"%s","containerRecreateStates":[{"name":"app","phase":"%s"}]}}""";

    @Test
    void knownValuesReadAsTheirConstants() {
        StatefulSet set = read(StatefulSet.class, STATEFULSET.formatted("Parallel", "RollingUpdate",
                "InPlaceOnly", "Delete", "Retain", "OnPodRollingUpdate"));
        StatefulSetSpec spec = set.getSpec();
        assertEquals(Optional.of(PodManagementPolicyType.PARALLEL), spec.podManagementPolicyValue());
        assertEquals(Optional.of(StatefulSetUpdateStrategyType.ROLLING_UPDATE), spec.getUpdateStrategy().typeValue());
        assertEquals(Optional.of(PodUpdateStrategyType.IN_PLACE_ONLY),
                spec.getUpdateStrategy().getRollingUpdate().podUpdatePolicyValue());
        assertEquals(Optional.of(PersistentVolumeClaimRetentionPolicyType.DELETE),
                spec.getPersistentVolumeClaimRetentionPolicy().whenDeletedValue());
        assertEquals(Optional.of(PersistentVolumeClaimRetentionPolicyType.RETAIN),
                spec.getPersistentVolumeClaimRetentionPolicy().whenScaledValue());
        assertEquals(Optional.of(VolumeClaimUpdateStrategyType.ON_POD_ROLLING_UPDATE),
                spec.getVolumeClaimUpdateStrategy().typeValue());

        CloneSet cs = read(CloneSet.class, CLONESET.formatted("InPlaceIfPossible"));
        assertEquals(Optional.of(CloneSetUpdateStrategyType.IN_PLACE_IF_POSSIBLE),
                cs.getSpec().getUpdateStrategy().typeValue());

        ContainerRecreateRequest crr = read(ContainerRecreateRequest.class, CRR.formatted("Ignore", "Completed",
                "Succeeded"));
        assertEquals(Optional.of(ContainerRecreateRequestFailurePolicy.IGNORE),
                crr.getSpec().getStrategy().failurePolicyValue());
        assertTrue(crr.getSpec().getStrategy().ignoresFailures());
        assertEquals(Optional.of(ContainerRecreateRequestPhase.COMPLETED), crr.getStatus().phaseValue());
        assertEquals(Optional.of(ContainerRecreateRequestPhase.SUCCEEDED),
                crr.getStatus().getContainerRecreateStates().get(0).phaseValue());
    }

    @Test
    void unknownValuesSurviveARoundTripAndReadAsEmpty() {
        String json = STATEFULSET.formatted("parallel", "Canary", "InPlace\\u00e9Only", "<script>", "Delete ",
                "x".repeat(5_000));
        StatefulSet set = read(StatefulSet.class, json);
        StatefulSetSpec spec = set.getSpec();
        assertEquals("parallel", spec.getPodManagementPolicy());
        assertEquals(Optional.empty(), spec.podManagementPolicyValue());
        assertEquals(Optional.empty(), spec.getUpdateStrategy().typeValue());
        assertEquals(Optional.empty(), spec.getUpdateStrategy().getRollingUpdate().podUpdatePolicyValue());
        assertEquals(Optional.empty(), spec.getPersistentVolumeClaimRetentionPolicy().whenDeletedValue());
        assertEquals(Optional.empty(), spec.getPersistentVolumeClaimRetentionPolicy().whenScaledValue());
        assertEquals(Optional.empty(), spec.getVolumeClaimUpdateStrategy().typeValue());
        assertWrittenBackUnchanged(json, set);

        String cloneSet = CLONESET.formatted("OnDelete");
        CloneSet cs = read(CloneSet.class, cloneSet);
        assertEquals(Optional.empty(), cs.getSpec().getUpdateStrategy().typeValue());
        assertWrittenBackUnchanged(cloneSet, cs);

        String request = CRR.formatted("Retry", "Paused", "Skipped");
        ContainerRecreateRequest crr = read(ContainerRecreateRequest.class, request);
        assertEquals(Optional.empty(), crr.getSpec().getStrategy().failurePolicyValue());
        assertFalse(crr.getSpec().getStrategy().ignoresFailures(), "an unknown policy behaves as Fail");
        assertEquals(Optional.empty(), crr.getStatus().phaseValue());
        assertEquals(Optional.empty(), crr.getStatus().getContainerRecreateStates().get(0).phaseValue());
        assertWrittenBackUnchanged(request, crr);
    }

    @Test
    void unsetFieldsReadAsEmptyAndStayUnset() {
        String json = """
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","metadata":{"name":"s"},
                 "spec":{"updateStrategy":{"rollingUpdate":{}},"persistentVolumeClaimRetentionPolicy":{},
                   "volumeClaimUpdateStrategy":{}}}""";
        StatefulSet set = read(StatefulSet.class, json);
        assertEquals(Optional.empty(), set.getSpec().podManagementPolicyValue());
        assertEquals(Optional.empty(), set.getSpec().getUpdateStrategy().typeValue());
        assertEquals(Optional.empty(), set.getSpec().getUpdateStrategy().getRollingUpdate().podUpdatePolicyValue());
        assertEquals(Optional.empty(), set.getSpec().getPersistentVolumeClaimRetentionPolicy().whenDeletedValue());
        assertEquals(Optional.empty(), set.getSpec().getVolumeClaimUpdateStrategy().typeValue());
        assertWrittenBackUnchanged(json, set);
    }

    private static <T> T read(Class<T> type, String json) {
        return ApiJson.serialization().unmarshal(json, type);
    }

    /** Through text, as the API server would see it; also proves no accessor became a JSON property. */
    private static void assertWrittenBackUnchanged(String original, Object model) {
        JsonNode expected = ApiJson.serialization().unmarshal(original, JsonNode.class);
        JsonNode written = ApiJson.serialization().unmarshal(ApiJson.toJson(model), JsonNode.class);
        assertEquals(expected, written);
    }
}
