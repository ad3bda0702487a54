package dev.kruisevertx.webhook;

import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.cloneset.CloneSetWebhooks;
import dev.kruisevertx.webhook.cloneset.PodLookup;
import dev.kruisevertx.webhook.crr.CrrWebhooks;
import dev.kruisevertx.webhook.pod.PodMutatingPipeline;
import dev.kruisevertx.webhook.pod.PodWebhooks;

/** Registers every admission webhook this module implements; returns the pod pipeline for later steps. */
public final class KruiseWebhooks {
    private KruiseWebhooks() {
    }

    /**
     * @param kruisePodReadinessGate feature gate KruisePodReadinessGate
     * @param templateNoDefaults     feature gate TemplateNoDefaults
     * @param kruiseDaemon           feature gate KruiseDaemon (ContainerRecreateRequests are refused while it is off)
     * @param pods                   in-memory pod lookup (the shared watch cache)
     */
    public static PodMutatingPipeline registerAll(AdmissionRegistry registry, boolean kruisePodReadinessGate,
                                                  boolean templateNoDefaults, boolean kruiseDaemon, PodLookup pods) {
        PodMutatingPipeline pipeline = PodWebhooks.register(registry, kruisePodReadinessGate);
        CloneSetWebhooks.register(registry, pods, templateNoDefaults);
        CrrWebhooks.register(registry, pods, kruiseDaemon);
        return pipeline;
    }
}
