package dev.kruisevertx.agent.crr;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One pod runs one request at a time: the one already Recreating, else the oldest. The others that the agent has
 * not answered yet are moved to Pending so their authors see they are queued.
 */
public final class RequestPicker {
    private static final Comparator<ContainerRecreateRequest> ORDER = Comparator
            .comparingInt((ContainerRecreateRequest crr) -> weight(crr.status().getPhase()))
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

    private static int weight(String phase) {
        if (ContainerRecreateRequestPhase.COMPLETED.equals(phase)) {
            return 1;
        }
        if (ContainerRecreateRequestPhase.RECREATING.equals(phase)) {
            return 2;
        }
        if (ContainerRecreateRequestPhase.PENDING.equals(phase)) {
            return 3;
        }
        return 4;
    }
}
