package dev.kruisevertx.webhook;

import dev.kruisevertx.features.Feature;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.advancedcronjob.AdvancedCronJobWebhooks;
import dev.kruisevertx.webhook.broadcastjob.BroadcastJobWebhooks;
import dev.kruisevertx.webhook.cloneset.CloneSetWebhooks;
import dev.kruisevertx.webhook.crr.CrrWebhooks;
import dev.kruisevertx.webhook.daemonset.DaemonSetWebhooks;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.pod.PodMutatingPipeline;
import dev.kruisevertx.webhook.pod.PodWebhooks;
import dev.kruisevertx.webhook.sidecarset.SidecarSetWebhooks;
import dev.kruisevertx.webhook.statefulset.StatefulSetWebhooks;
import dev.kruisevertx.webhook.uniteddeployment.UnitedDeploymentWebhooks;

/** Registers every admission webhook this module implements; returns the pod pipeline for later steps. */
public final class KruiseWebhooks {
    private KruiseWebhooks() {
    }

    /** Registers every webhook with what it reads; returns the pod pipeline for later steps. */
    public static PodMutatingPipeline registerAll(AdmissionRegistry registry, WebhookDependencies deps) {
        FeatureGates gates = deps.gates();
        boolean templateNoDefaults = gates.enabled(Feature.TemplateNoDefaults);
        SidecarSetWebhooks.register(registry, deps.sidecarSets());
        PodMutatingPipeline pipeline = PodWebhooks.register(registry, gates.enabled(Feature.KruisePodReadinessGate));
        CloneSetWebhooks.register(registry, deps.pods(), templateNoDefaults);
        CrrWebhooks.register(registry, deps.pods(), deps.nodes(), gates.enabled(Feature.KruiseDaemon));
        StatefulSetWebhooks.register(registry, new StatefulSetWebhooks.Gates(templateNoDefaults,
                gates.enabled(Feature.StatefulSetAutoDeletePVC), gates.enabled(Feature.StatefulSetAutoResizePVCGate)));
        DaemonSetWebhooks.register(registry);
        AdvancedCronJobWebhooks.register(registry, templateNoDefaults);
        BroadcastJobWebhooks.register(registry, templateNoDefaults);
        UnitedDeploymentWebhooks.register(registry, templateNoDefaults);
        return pipeline;
    }

    /** Registers every CRD converter this module implements for {@code /convert}. */
    public static ConversionRegistry registerConversions(ConversionRegistry conversions) {
        StatefulSetWebhooks.registerConversion(conversions);
        DaemonSetWebhooks.registerConversion(conversions);
        SidecarSetWebhooks.registerConversion(conversions);
        return conversions;
    }
}
