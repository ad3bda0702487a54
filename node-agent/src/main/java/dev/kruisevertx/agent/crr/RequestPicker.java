package dev.kruisevertx.agent.crr;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One pod runs one request at a time: the one already Recreating, else the oldest (Pending or not answered yet). The
 * others that the agent has not answered yet are moved to Pending so their authors see they are queued.
 */
public final class RequestPicker {
    private static final Comparator<ContainerRecreateRequest> ORDER = Comparator
            .comparingInt((ContainerRecreateRequest crr) -> weight(crr.status().phaseValue().orElse(null)))
            .thenComparing(crr -> crr.getMetadata().getCreationTimestamp() == null ? ""
                    : crr.getMetadata().getCreationTimestamp())
            .thenComparing(crr -> crr.getMetadata().getName());

    /** The request to run (null when none is active) and those to mark Pending. */
    public record Picked(ContainerRecreateRequest running, List<ContainerRecreateRequest> toPending) {
    }

    private RequestPicker() {
    }

    public static Picked pick(List<ContainerRecreateRequest> requestsOfOnePod) {
        List<ContainerRecreateRequest> sorted = new ArrayList<>(requestsOfOnePod);
        sorted.sort(ORDER);
        ContainerRecreateRequest running = null;
        List<ContainerRecreateRequest> toPending = new ArrayList<>();
        for (ContainerRecreateRequest crr : sorted) {
            if (crr.getMetadata().getDeletionTimestamp() != null || crr.isCompleted()) {
                continue;
            }
            if (running == null) {
                running = crr;
            } else if (crr.status().getPhase() == null || crr.status().getPhase().isEmpty()) {
                toPending.add(crr);
            }
        }
        return new Picked(running, toPending);
    }

    /**
     * A request already Recreating keeps the pod; all others queue by age alone. Ranking Pending ahead of a request
     * not answered yet (as a phase order would) lets a younger request jump the queue when the cache has seen our
     * Pending patch of it but not yet the Recreating patch of the older one.
     */
    private static int weight(ContainerRecreateRequestPhase phase) {
        return phase == ContainerRecreateRequestPhase.RECREATING ? 0 : 1;
    }
}
