package dev.kruisevertx.features;

/**
 * Every OpenKruise feature gate (v1.9), with the same name, default and maturity stage, so that a
 * {@code --feature-gates} value written for OpenKruise means the same thing here.
 */
public enum Feature {
    PodWebhook(true, Stage.BETA),
    KruiseDaemon(true, Stage.BETA),
    DaemonWatchingPod(true, Stage.BETA),
    WorkloadSpread(true, Stage.BETA),
    PodUnavailableBudgetDeleteGate(true, Stage.BETA),
    InPlaceUpdateEnvFromMetadata(true, Stage.BETA),
    StatefulSetAutoDeletePVC(true, Stage.BETA),
    PodProbeMarkerGate(true, Stage.BETA),
    PodIndexLabel(true, Stage.BETA),

    ResourcesDeletionProtection(false, Stage.BETA),
    ResourceDistributionGate(false, Stage.BETA),

    CloneSetShortHash(false, Stage.ALPHA),
    KruisePodReadinessGate(false, Stage.ALPHA),
    PreDownloadImageForInPlaceUpdate(false, Stage.ALPHA),
    CloneSetPartitionRollback(false, Stage.ALPHA),
    PodUnavailableBudgetUpdateGate(false, Stage.ALPHA),
    TemplateNoDefaults(false, Stage.ALPHA),
    SidecarSetPatchPodMetadataDefaultsAllowed(false, Stage.ALPHA),
    SidecarTerminator(false, Stage.ALPHA),
    PreDownloadImageForDaemonSetUpdate(false, Stage.ALPHA),
    CloneSetEventHandlerOptimization(false, Stage.ALPHA),
    PreparingUpdateAsUpdate(false, Stage.ALPHA),
    ImagePullJobGate(false, Stage.ALPHA),
    DeletionProtectionForCRDCascadingGate(false, Stage.ALPHA),
    EnhancedLivenessProbe(false, Stage.ALPHA),
    RecreatePodWhenChangeVCTInCloneSetGate(false, Stage.ALPHA),
    StatefulSetStartOrdinal(false, Stage.ALPHA),
    EnableExternalCerts(false, Stage.ALPHA),
    StatefulSetAutoResizePVCGate(false, Stage.ALPHA),
    ForceDeleteTimeoutExpectationGate(false, Stage.ALPHA),
    InPlaceWorkloadVerticalScaling(false, Stage.ALPHA),
    EnablePodProbeMarkerOnServerless(false, Stage.ALPHA),
    EnableSortSidecarContainerByName(false, Stage.ALPHA),
    InPlacePodVerticalScaling(false, Stage.ALPHA),
    DefaultHostNetworkHostPortsInPodTemplates(false, Stage.ALPHA),
    DaemonSetPruneIneligibleNodes(false, Stage.ALPHA);

    /** Maturity of a gate, as Kubernetes component-base names it. */
    public enum Stage { ALPHA, BETA, GA }

    private final boolean defaultEnabled;
    private final Stage stage;

    Feature(boolean defaultEnabled, Stage stage) {
        this.defaultEnabled = defaultEnabled;
        this.stage = stage;
    }

    public boolean defaultEnabled() {
        return defaultEnabled;
    }

    public Stage stage() {
        return stage;
    }
}
