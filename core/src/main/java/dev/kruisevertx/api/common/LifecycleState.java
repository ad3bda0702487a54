package dev.kruisevertx.api.common;

import java.util.Optional;

/**
 * Values of the pod label {@value WellKnown#LIFECYCLE_STATE_LABEL}, in the order a pod normally passes through
 * them.
 */
public enum LifecycleState implements WireEnum {
    /** Created but held by the preNormal hook. */
    PREPARING_NORMAL("PreparingNormal"),
    /** In service; the only state in which a pod can count as available. */
    NORMAL("Normal"),
    /** Chosen for an in-place update, waiting for the inPlaceUpdate hook to be released. */
    PREPARING_UPDATE("PreparingUpdate"),
    /** Being updated in place. */
    UPDATING("Updating"),
    /** Updated in place, held by the inPlaceUpdate hook before going back to Normal. */
    UPDATED("Updated"),
    /** Chosen for deletion, waiting for the preDelete hook to be released. */
    PREPARING_DELETE("PreparingDelete");

    private final String value;

    LifecycleState(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The state for a label value; empty for a missing or unknown value. */
    public static Optional<LifecycleState> fromValue(String value) {
        return WireEnum.parse(LifecycleState.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
