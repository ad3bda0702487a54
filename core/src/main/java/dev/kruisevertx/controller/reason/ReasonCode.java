package dev.kruisevertx.controller.reason;

/**
 * Why a workload controller did not create, delete or update a pod the spec asks for. Every workload controller
 * reports its "not now" decisions with these codes (see {@link BlockReason}); a new controller adds a code here only
 * for a rule none of these names.
 *
 * <p>{@link #intended()} codes hold pods because the user asked for it (a partition, a pause): the rollout is where
 * the spec wants it, so they never count as stuck and never feed {@code kruise_workload_blocked}.
 */
public enum ReasonCode {
    /** The update strategy's partition keeps pods at the current revision. */
    PARTITION("Partition", true),
    /** The update strategy is paused. */
    PAUSED("Paused", true),
    /** maxUnavailable is used up by pods unavailable now. */
    MAX_UNAVAILABLE("MaxUnavailable", false),
    /** maxSurge is used up by extra pods not yet available. */
    MAX_SURGE("MaxSurge", false),
    /** A lifecycle hook (preDelete, inPlaceUpdate, preNormal) waits for a label or finalizer to change. */
    LIFECYCLE_HOOK("LifecycleHook", false),
    /** A PodUnavailableBudget refused an eviction or deletion. */
    POD_UNAVAILABLE_BUDGET("PodUnavailableBudget", false),
    /** The cache has not yet shown the controller's own earlier writes. */
    EXPECTATIONS("Expectations", false),
    /** A ready pod is not yet available: minReadySeconds has not passed. */
    MIN_READY_SECONDS("MinReadySeconds", false),
    /** A pod cannot be scheduled (the scheduler's message). */
    UNSCHEDULABLE("Unschedulable", false),
    /** Images are pre-downloaded before the update goes on (ImagePullJob; reported once that feature exists). */
    IMAGE_PRE_DOWNLOAD("ImagePreDownload", false),
    /** An admission webhook refused a create or update (the message of the last refused write). */
    WEBHOOK_REJECTION("WebhookRejection", false),
    /** A job's parallelism is used up by its active pods (BroadcastJob). */
    PARALLELISM("Parallelism", false),
    /** A job's failure policy stopped (FailFast) or paused (Pause) it at a failed pod (BroadcastJob). */
    FAILURE_POLICY("FailurePolicy", false),
    /** No node fits a per-node workload's pod template (BroadcastJob); the nodes' reasons by count. */
    NO_NODE_FITS("NoNodeFits", false),
    /** concurrencyPolicy Forbid holds a scheduled run while an earlier one is active (AdvancedCronJob). */
    CONCURRENCY_POLICY("ConcurrencyPolicy", true),
    /** A scheduled run is not started: its startingDeadlineSeconds passed, or too many starts were missed. */
    MISSED_START("MissedStart", false),
    /** The selector matches no pod it can act on (PodProbeMarker, EphemeralJob): nothing to do until one appears. */
    NO_MATCHING_PODS("NoMatchingPods", true);

    private final String wireName;
    private final boolean intended;

    ReasonCode(String wireName, boolean intended) {
        this.wireName = wireName;
        this.intended = intended;
    }

    /** The name in {@code kubectl kruise why}, JSON, Events and the metric's {@code reason} label. */
    public String wireName() {
        return wireName;
    }

    /** Held because the user asked for it: not stuck. */
    public boolean intended() {
        return intended;
    }

    @Override
    public String toString() {
        return wireName;
    }
}
