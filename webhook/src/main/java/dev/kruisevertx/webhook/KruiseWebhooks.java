package dev.kruisevertx.webhook;

import dev.kruisevertx.features.Feature;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.advancedcronjob.AdvancedCronJobWebhooks;
import dev.kruisevertx.webhook.broadcastjob.BroadcastJobWebhooks;
import dev.kruisevertx.webhook.cloneset.CloneSetWebhooks;
import dev.kruisevertx.webhook.crr.CrrWebhooks;
import dev.kruisevertx.webhook.daemonset.DaemonSetWebhooks;
import dev.kruisevertx.webhook.deletionprotection.DeletionProtection;
import dev.kruisevertx.webhook.deletionprotection.DeletionProtectionWebhooks;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.pod.PodMutatingPipeline;
import dev.kruisevertx.webhook.pod.PodMutationStage;
import dev.kruisevertx.webhook.pod.PodWebhooks;
import dev.kruisevertx.webhook.sidecarset.SidecarSetInjectionStep;
import dev.kruisevertx.webhook.podunavailablebudget.PodUnavailableBudgetWebhooks;
import dev.kruisevertx.webhook.sidecarset.SidecarSetWebhooks;
import dev.kruisevertx.webhook.statefulset.StatefulSetWebhooks;
import dev.kruisevertx.webhook.uniteddeployment.UnitedDeploymentWebhooks;
import dev.kruisevertx.webhook.pod.PodValidatingPipeline;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadPodDeletionCheck;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadPodStep;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadWebhooks;

/** Registers every admission webhook this module implements; returns the pod pipeline for later steps. */
public final class KruiseWebhooks {
    /** UnitedDeployment's validating path (OpenKruise's); deletion protection answers its deletes until it has one. */
    public static final String UNITED_DEPLOYMENT_VALIDATE_PATH = "/validate-apps-kruise-io-uniteddeployment";

    private KruiseWebhooks() {
    }

    /** Registers every webhook with what it reads; returns the pod pipeline for later steps. */
    public static PodMutatingPipeline registerAll(AdmissionRegistry registry, WebhookDependencies deps) {
        FeatureGates gates = deps.gates();
        boolean templateNoDefaults = gates.enabled(Feature.TemplateNoDefaults);
        SidecarSetWebhooks.register(registry, deps.sidecarSets(),
                gates.enabled(Feature.SidecarSetPatchPodMetadataDefaultsAllowed));
        PodMutatingPipeline pipeline = PodWebhooks.register(registry, gates.enabled(Feature.KruisePodReadinessGate));
        if (gates.enabled(Feature.PodWebhook)) {
            pipeline.register(PodMutationStage.SIDECARSET, new SidecarSetInjectionStep(deps.sidecarSets(),
                    gates.enabled(Feature.EnableSortSidecarContainerByName)));
            pipeline.register(PodMutationStage.CONTAINER_LAUNCH_PRIORITY,
                    new dev.kruisevertx.webhook.pod.ContainerLaunchPriorityStep());
        }
        // One /validate-pod for every feature, in OpenKruise's order: the budget first, then WorkloadSpread's
        // deletion bookkeeping (a deletion the budget refuses is never recorded as deleting).
        PodValidatingPipeline podValidation = new PodValidatingPipeline();
        PodUnavailableBudgetWebhooks.register(registry, pipeline, podValidation, deps);
        if (gates.enabled(Feature.PodWebhook) && gates.enabled(Feature.WorkloadSpread)) {
            deps.workloadSpreadPods().ifPresent(ws -> {
                pipeline.registerAsync(PodMutationStage.WORKLOAD_SPREAD, new WorkloadSpreadPodStep(ws));
                podValidation.register(new WorkloadSpreadPodDeletionCheck(ws, deps.pods()));
            });
        }
        if (podValidation.size() > 0) {
            registry.register(PodValidatingPipeline.PATH, podValidation);
        }
        CloneSetWebhooks.register(registry, deps.pods(), templateNoDefaults);
        CrrWebhooks.register(registry, deps.pods(), deps.nodes(), gates.enabled(Feature.KruiseDaemon));
        StatefulSetWebhooks.register(registry, new StatefulSetWebhooks.Gates(templateNoDefaults,
                gates.enabled(Feature.StatefulSetAutoDeletePVC), gates.enabled(Feature.StatefulSetAutoResizePVCGate)));
        DaemonSetWebhooks.register(registry);
        AdvancedCronJobWebhooks.register(registry, templateNoDefaults);
        BroadcastJobWebhooks.register(registry, templateNoDefaults);
        UnitedDeploymentWebhooks.register(registry, templateNoDefaults);
        WorkloadSpreadWebhooks.register(registry, gates.enabled(Feature.WorkloadSpread), deps.workloadSpreads());
        dev.kruisevertx.webhook.ephemeraljob.EphemeralJobWebhooks.register(registry);
        dev.kruisevertx.webhook.resourcedistribution.ResourceDistributionWebhooks.register(registry,
                gates.enabled(Feature.ResourceDistributionGate));
        dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.register(registry,
                new dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.Gates(gates.enabled(Feature.KruiseDaemon),
                        gates.enabled(Feature.ImagePullJobGate)), java.time.Clock.systemUTC());
        dev.kruisevertx.webhook.podprobemarker.PodProbeMarkerWebhooks.register(registry,
                gates.enabled(Feature.PodProbeMarkerGate), gates.enabled(Feature.KruiseDaemon));
        if (gates.enabled(Feature.PodWebhook) && gates.enabled(Feature.EnhancedLivenessProbe)) {
            pipeline.register(PodMutationStage.ENHANCED_LIVENESS_PROBE, new dev.kruisevertx.webhook.pod.EnhancedLivenessProbeStep());
        }
        dev.kruisevertx.webhook.persistentpodstate.PersistentPodStateWebhooks.register(registry,
                deps.persistentPodStates());
        if (gates.enabled(Feature.PodWebhook)) {
            pipeline.register(PodMutationStage.PERSISTENT_POD_STATE,
                    new dev.kruisevertx.webhook.pod.PersistentPodStateStep(deps.persistentPodStates()));
        }
        if (gates.enabled(Feature.PodWebhook) && gates.enabled(Feature.EnablePodProbeMarkerOnServerless)) {
            pipeline.register(PodMutationStage.POD_PROBE_MARKER_SERVERLESS,
                    new dev.kruisevertx.webhook.pod.PodProbeMarkerServerlessStep(deps.podProbeMarkers()));
        }
        registerDeletionProtection(registry, deps);
        return pipeline;
    }

    /**
     * OpenKruise's ResourcesDeletionProtection: the paths of the built-in kinds, and the DELETE branch of the kruise
     * workloads' validating webhooks. Runs after every kind's own webhook is registered, so a UnitedDeployment webhook
     * registered above is wrapped rather than replaced.
     */
    private static void registerDeletionProtection(AdmissionRegistry registry, WebhookDependencies deps) {
        DeletionProtectionWebhooks protection = new DeletionProtectionWebhooks(new DeletionProtection.Gates(
                deps.gates().enabled(Feature.ResourcesDeletionProtection),
                deps.gates().enabled(Feature.DeletionProtectionForCRDCascadingGate)),
                deps.deletionProtection(), deps.meters());
        protection.register(registry);
        protection.protectDeletesAt(registry, CloneSetWebhooks.VALIDATE_PATH);
        protection.protectDeletesAt(registry, StatefulSetWebhooks.VALIDATE_PATH);
        protection.protectDeletesAt(registry, UNITED_DEPLOYMENT_VALIDATE_PATH);
    }

    /** Registers every CRD converter this module implements for {@code /convert}. */
    public static ConversionRegistry registerConversions(ConversionRegistry conversions) {
        StatefulSetWebhooks.registerConversion(conversions);
        DaemonSetWebhooks.registerConversion(conversions);
        SidecarSetWebhooks.registerConversion(conversions);
        CloneSetWebhooks.registerConversion(conversions);
        dev.kruisevertx.webhook.workloadspread.WorkloadSpreadWebhooks.registerConversion(conversions);
        dev.kruisevertx.webhook.persistentpodstate.PersistentPodStateWebhooks.registerConversion(conversions);
        PodUnavailableBudgetWebhooks.registerConversion(conversions);
        CrrWebhooks.registerConversion(conversions);
        UnitedDeploymentWebhooks.registerConversion(conversions);
        dev.kruisevertx.webhook.resourcedistribution.ResourceDistributionWebhooks.registerConversion(conversions);
        return conversions;
    }
}
