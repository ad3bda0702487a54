package dev.kruisevertx.webhook.pod;

/**
 * The places in OpenKruise's pod mutating pipeline, in the order they run on {@code /mutate-pod}. Order
 * matters: SidecarSet injection must precede container launch priority, which counts the containers.
 */
public enum PodMutationStage {
    /** Readiness gate {@code KruisePodReady} for pods of kruise workloads (or all, gate KruisePodReadinessGate). */
    READINESS_GATE,
    /** WorkloadSpread subset choice (gate WorkloadSpread). */
    WORKLOAD_SPREAD,
    /** SidecarSet injection. */
    SIDECARSET,
    /** Container launch priority barrier env. */
    CONTAINER_LAUNCH_PRIORITY,
    /** Related PodUnavailableBudget annotation (either PUB gate). */
    POD_UNAVAILABLE_BUDGET,
    /** PersistentPodState topology injection. */
    PERSISTENT_POD_STATE,
    /** Enhanced liveness probe (gate EnhancedLivenessProbe). */
    ENHANCED_LIVENESS_PROBE,
    /** PodProbeMarker on serverless (gate EnablePodProbeMarkerOnServerless). */
    POD_PROBE_MARKER_SERVERLESS
}
