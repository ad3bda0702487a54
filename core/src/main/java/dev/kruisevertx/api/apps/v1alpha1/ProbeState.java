package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/**
 * The outcome of a PodProbeMarker probe (OpenKruise's {@code ProbeState}): {@code markerPolicy[].state} and
 * {@code podProbeStatuses[].probeStates[].state}. The fields stay strings; {@code stateValue()} parses them.
 */
public enum ProbeState implements WireEnum {
    SUCCEEDED("Succeeded"),
    FAILED("Failed"),
    UNKNOWN("Unknown");

    private final String value;

    ProbeState(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<ProbeState> fromValue(String value) {
        return WireEnum.parse(ProbeState.class, value);
    }

    /** Whether a pod condition status ("True", "False", other) says the same as this state, as OpenKruise. */
    public boolean matchesConditionStatus(String status) {
        if ("True".equals(status)) {
            return this == SUCCEEDED;
        }
        if ("False".equals(status)) {
            return this == FAILED;
        }
        return this == UNKNOWN;
    }

    @Override
    public String toString() {
        return value;
    }
}
