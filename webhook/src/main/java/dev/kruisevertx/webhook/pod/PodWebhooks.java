package dev.kruisevertx.webhook.pod;

import dev.kruisevertx.webhook.admission.AdmissionRegistry;

/** Wires the pod webhooks of this module into a registry. */
public final class PodWebhooks {
    private PodWebhooks() {
    }

    /**
     * Registers {@code /mutate-pod} with a pipeline whose first step is the readiness gate; later issues add
     * their steps to the returned pipeline.
     */
    public static PodMutatingPipeline register(AdmissionRegistry registry, boolean kruisePodReadinessGate) {
        PodMutatingPipeline pipeline = new PodMutatingPipeline()
                .register(PodMutationStage.READINESS_GATE, new ReadinessGateStep(kruisePodReadinessGate));
        registry.register(PodMutatingPipeline.PATH, pipeline);
        return pipeline;
    }
}
