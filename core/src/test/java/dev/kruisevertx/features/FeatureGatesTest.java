package dev.kruisevertx.features;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FeatureGatesTest {
    private static final Set<Feature> ON_BY_DEFAULT = EnumSet.of(Feature.PodWebhook, Feature.KruiseDaemon,
            Feature.DaemonWatchingPod, Feature.WorkloadSpread, Feature.PodUnavailableBudgetDeleteGate,
            Feature.InPlaceUpdateEnvFromMetadata, Feature.StatefulSetAutoDeletePVC, Feature.PodProbeMarkerGate,
            Feature.PodIndexLabel);

    @Test
    void defaultsMatchOpenKruise() {
        FeatureGates gates = FeatureGates.defaults();
        assertEquals(36, Feature.values().length, "every OpenKruise v1.9 gate");
        for (Feature f : Feature.values()) {
            assertEquals(ON_BY_DEFAULT.contains(f), gates.enabled(f), f.name());
        }
        assertEquals(Feature.Stage.BETA, Feature.ResourcesDeletionProtection.stage());
        assertEquals(Feature.Stage.ALPHA, Feature.ImagePullJobGate.stage());
        assertEquals(Feature.Stage.BETA, Feature.PodIndexLabel.stage());
    }

    @Test
    void parseOverridesDefaults() {
        FeatureGates gates = FeatureGates.parse(" CloneSetShortHash=true, WorkloadSpread=false ,PodIndexLabel=False", Map.of());
        assertTrue(gates.enabled(Feature.CloneSetShortHash));
        assertFalse(gates.enabled(Feature.WorkloadSpread));
        assertFalse(gates.enabled(Feature.PodIndexLabel));
        assertTrue(gates.enabled(Feature.PodWebhook));
        assertEquals(FeatureGates.defaults(), FeatureGates.parse("", Map.of()));
        assertEquals(FeatureGates.defaults(), FeatureGates.parse(null, Map.of()));
    }

    @Test
    void chartDefaultEnablesImagePullJobs() {
        assertTrue(FeatureGates.parse("ImagePullJobGate=true", Map.of()).enabled(Feature.ImagePullJobGate));
    }

    @Test
    void podWebhookOffSwitchesOffWhatNeedsIt() {
        FeatureGates gates = FeatureGates.parse("PodWebhook=false,KruisePodReadinessGate=true,PodUnavailableBudgetUpdateGate=true,"
                + "SidecarSetPatchPodMetadataDefaultsAllowed=true,EnhancedLivenessProbe=true,EnablePodProbeMarkerOnServerless=true",
                Map.of());
        for (Feature f : EnumSet.of(Feature.KruisePodReadinessGate, Feature.PodUnavailableBudgetDeleteGate,
                Feature.PodUnavailableBudgetUpdateGate, Feature.WorkloadSpread, Feature.SidecarSetPatchPodMetadataDefaultsAllowed,
                Feature.EnhancedLivenessProbe, Feature.EnablePodProbeMarkerOnServerless)) {
            assertFalse(gates.enabled(f), f.name());
        }
        assertTrue(gates.enabled(Feature.KruiseDaemon));
    }

    @Test
    void kruiseDaemonOffSwitchesOffWhatNeedsIt() {
        FeatureGates gates = FeatureGates.parse("KruiseDaemon=false,PreDownloadImageForInPlaceUpdate=true,"
                + "PreDownloadImageForDaemonSetUpdate=true,SidecarTerminator=true,ImagePullJobGate=true,EnhancedLivenessProbe=true",
                Map.of());
        for (Feature f : EnumSet.of(Feature.PreDownloadImageForInPlaceUpdate, Feature.PreDownloadImageForDaemonSetUpdate,
                Feature.DaemonWatchingPod, Feature.InPlaceUpdateEnvFromMetadata, Feature.PodProbeMarkerGate,
                Feature.SidecarTerminator, Feature.ImagePullJobGate, Feature.EnhancedLivenessProbe)) {
            assertFalse(gates.enabled(f), f.name());
        }
    }

    @Test
    void preDownloadImpliesImagePullJobs() {
        assertTrue(FeatureGates.parse("PreDownloadImageForInPlaceUpdate=true,ImagePullJobGate=false", Map.of())
                .enabled(Feature.ImagePullJobGate));
        assertTrue(FeatureGates.parse("PreDownloadImageForDaemonSetUpdate=true", Map.of()).enabled(Feature.ImagePullJobGate));
    }

    @Test
    void cascadingDeletionProtectionNeedsDeletionProtection() {
        assertFalse(FeatureGates.parse("DeletionProtectionForCRDCascadingGate=true", Map.of())
                .enabled(Feature.DeletionProtectionForCRDCascadingGate));
        assertTrue(FeatureGates.parse("ResourcesDeletionProtection=true,DeletionProtectionForCRDCascadingGate=true", Map.of())
                .enabled(Feature.DeletionProtectionForCRDCascadingGate));
    }

    @Test
    void legacyCustomResourceEnableWithoutSidecarSetTurnsThePodWebhookOffByDefault() {
        Map<String, String> env = Map.of(FeatureGates.CUSTOM_RESOURCE_ENABLE_ENV, "CloneSet,BroadcastJob");
        FeatureGates gates = FeatureGates.parse("", env);
        assertFalse(gates.enabled(Feature.PodWebhook));
        assertFalse(gates.enabled(Feature.WorkloadSpread), "derived from the pod webhook default");
        assertTrue(FeatureGates.parse("PodWebhook=true", env).enabled(Feature.PodWebhook), "an explicit flag wins");
        assertTrue(FeatureGates.parse("", Map.of(FeatureGates.CUSTOM_RESOURCE_ENABLE_ENV, "CloneSet,SidecarSet"))
                .enabled(Feature.PodWebhook));
        assertTrue(FeatureGates.parse("", Map.of(FeatureGates.CUSTOM_RESOURCE_ENABLE_ENV, " ")).enabled(Feature.PodWebhook));
    }

    @Test
    void unknownGateNamesTheEntryAndListsKnownGates() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FeatureGates.parse("CloneSetShortHash=true,NoSuchGate=true", Map.of()));
        assertTrue(e.getMessage().contains("\"NoSuchGate=true\""), e.getMessage());
        assertTrue(e.getMessage().contains("unknown feature gate"), e.getMessage());
        assertTrue(e.getMessage().contains("known gates: CloneSetEventHandlerOptimization, CloneSetPartitionRollback"),
                e.getMessage());
        assertTrue(e.getMessage().contains("WorkloadSpread"), e.getMessage());
    }

    @Test
    void badValuesAreClearErrors() {
        IllegalArgumentException noValue = assertThrows(IllegalArgumentException.class,
                () -> FeatureGates.parse("PodWebhook", Map.of()));
        assertTrue(noValue.getMessage().contains("\"PodWebhook\""), noValue.getMessage());
        IllegalArgumentException notBool = assertThrows(IllegalArgumentException.class,
                () -> FeatureGates.parse("PodWebhook=yes", Map.of()));
        assertTrue(notBool.getMessage().contains("\"yes\" is not true or false"), notBool.getMessage());
        assertTrue(FeatureGates.parse("CloneSetShortHash=1", Map.of()).enabled(Feature.CloneSetShortHash));
    }

    @Test
    void toStringIsAValidFlagValue() {
        FeatureGates gates = FeatureGates.parse("CloneSetShortHash=true", Map.of());
        assertEquals(gates, FeatureGates.parse(gates.toString(), Map.of()));
        assertTrue(gates.toString().contains("CloneSetShortHash=true"));
        assertEquals(Feature.values().length, gates.all().size());
    }
}
