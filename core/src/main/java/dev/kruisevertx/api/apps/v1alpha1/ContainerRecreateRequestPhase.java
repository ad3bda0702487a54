package dev.kruisevertx.api.apps.v1alpha1;

/**
 * Values of {@code status.phase} of a ContainerRecreateRequest and of each {@code containerRecreateStates[].phase}.
 * The fields are strings so an unexpected value survives a read.
 */
public final class ContainerRecreateRequestPhase {
    public static final String PENDING = "Pending";
    public static final String RECREATING = "Recreating";
    public static final String SUCCEEDED = "Succeeded";
    public static final String FAILED = "Failed";
    public static final String COMPLETED = "Completed";

    private ContainerRecreateRequestPhase() {
    }
}
