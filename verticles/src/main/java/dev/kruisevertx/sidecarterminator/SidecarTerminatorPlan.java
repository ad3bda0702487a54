package dev.kruisevertx.sidecarterminator;

import dev.kruisevertx.controller.PlanSummary;

import java.util.List;
import java.util.Map;

/**
 * What one SidecarTerminator reconcile does to a pod, decided by {@link SidecarTerminatorDecision}, in OpenKruise's
 * order: swap sidecar images (virtual kubelet), then finish the pod's phase (ignore-exit-code sidecars), then stop
 * sidecars through one ContainerRecreateRequest.
 *
 * @param swapImages  sidecar name to the image of its {@code KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE}
 * @param markPhase   {@code Succeeded} or {@code Failed} to write with the {@code SidecarTerminated} condition, or null
 * @param stop        sidecars to stop through the CRR {@code sidecar-termination-<pod uid>} (existing: wait for it)
 * @param reason      the decision in a few words, for the debug plan
 */
public record SidecarTerminatorPlan(Map<String, String> swapImages, String markPhase, List<String> stop,
                                    String reason) {

    static SidecarTerminatorPlan none(String reason) {
        return new SidecarTerminatorPlan(Map.of(), null, List.of(), reason);
    }

    public boolean nothing() {
        return swapImages.isEmpty() && markPhase == null && stop.isEmpty();
    }

    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(reason).count("swap", swapImages.size()).count("stop", stop.size());
        swapImages.keySet().forEach(c -> b.action("swap the image of sidecar " + c));
        if (markPhase != null) {
            b.action("set the pod's phase " + markPhase + " (condition SidecarTerminated)");
        }
        if (!stop.isEmpty()) {
            b.action("stop sidecars " + stop + " through a ContainerRecreateRequest");
        }
        return b.build();
    }
}
