package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/**
 * Values of {@code status.phase} of a ContainerRecreateRequest and of each {@code containerRecreateStates[].phase}
 * (OpenKruise's {@code ContainerRecreateRequestPhase}). The fields are strings so an unexpected value survives a
 * read; {@code phaseValue()} parses them.
 */
public enum ContainerRecreateRequestPhase implements WireEnum {
    /** Not started yet (request phase), or a container not recreated yet (container phase). */
    PENDING("Pending"),
    /** The node agent is recreating the containers. */
    RECREATING("Recreating"),
    /** Container phase: the container was recreated. */
    SUCCEEDED("Succeeded"),
    /** Container phase: recreating the container failed. */
    FAILED("Failed"),
    /** Request phase: finished, whatever the containers' outcome. */
    COMPLETED("Completed");

    private final String value;

    ContainerRecreateRequestPhase(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<ContainerRecreateRequestPhase> fromValue(String value) {
        return WireEnum.parse(ContainerRecreateRequestPhase.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
