package dev.kruisevertx.webhook;

import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.cloneset.CloneSetWebhooks;
import dev.kruisevertx.webhook.cloneset.PodLookup;
import dev.kruisevertx.webhook.crr.CrrWebhooks;
import dev.kruisevertx.webhook.daemonset.DaemonSetWebhooks;
import dev.kruisevertx.webhook.crr.NodeLookup;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.pod.PodMutatingPipeline;
import dev.kruisevertx.webhook.pod.PodWebhooks;
import dev.kruisevertx.webhook.sidecarset.SidecarSetLookup;
import dev.kruisevertx.webhook.sidecarset.SidecarSetWebhooks;
import dev.kruisevertx.webhook.statefulset.StatefulSetWebhooks;

/** Registers every admission webhook this module implements; returns the pod pipeline for later steps. */
public final class KruiseWebhooks {
    private KruiseWebhooks() {
    }

    /**
     * @param kruisePodReadinessGate feature gate KruisePodReadinessGate
     * @param templateNoDefaults     feature gate TemplateNoDefaults
     * @param kruiseDaemon           feature gate KruiseDaemon (ContainerRecreateRequests are refused while it is off)
     * @param autoDeletePvc          feature gate StatefulSetAutoDeletePVC
     * @param autoResizePvc          feature gate StatefulSetAutoResizePVCGate
     * @param pods                   in-memory pod lookup (the shared watch cache)
     */
    public static PodMutatingPipeline registerAll(AdmissionRegistry registry, boolean kruisePodReadinessGate,
                                                  boolean templateNoDefaults, boolean kruiseDaemon,
                                                  boolean autoDeletePvc, boolean autoResizePvc, PodLookup pods) {
        return registerAll(registry, kruisePodReadinessGate, templateNoDefaults, kruiseDaemon, autoDeletePvc,
                autoResizePvc, pods, NodeLookup.NONE);
    }

    /** As above, with a node lookup for the ContainerRecreateRequest webhook (virtual-kubelet nodes). */
    public static PodMutatingPipeline registerAll(AdmissionRegistry registry, boolean kruisePodReadinessGate,
                                                  boolean templateNoDefaults, boolean kruiseDaemon,
                                                  boolean autoDeletePvc, boolean autoResizePvc, PodLookup pods,
                                                  NodeLookup nodes) {
        return registerAll(registry, kruisePodReadinessGate, templateNoDefaults, kruiseDaemon, autoDeletePvc,
                autoResizePvc, pods, nodes, SidecarSetLookup.NONE);
    }

    /** As above, with the SidecarSets and their revisions for SidecarSet validation (the shared cache). */
    public static PodMutatingPipeline registerAll(AdmissionRegistry registry, boolean kruisePodReadinessGate,
                                                  boolean templateNoDefaults, boolean kruiseDaemon,
                                                  boolean autoDeletePvc, boolean autoResizePvc, PodLookup pods,
                                                  NodeLookup nodes, SidecarSetLookup sidecarSets) {
        SidecarSetWebhooks.register(registry, sidecarSets);
        PodMutatingPipeline pipeline = PodWebhooks.register(registry, kruisePodReadinessGate);
        CloneSetWebhooks.register(registry, pods, templateNoDefaults);
        CrrWebhooks.register(registry, pods, nodes, kruiseDaemon);
        StatefulSetWebhooks.register(registry, new StatefulSetWebhooks.Gates(templateNoDefaults,
                autoDeletePvc, autoResizePvc));
        DaemonSetWebhooks.register(registry);
        dev.kruisevertx.webhook.advancedcronjob.AdvancedCronJobWebhooks.register(registry, templateNoDefaults);
        dev.kruisevertx.webhook.broadcastjob.BroadcastJobWebhooks.register(registry, templateNoDefaults);
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
