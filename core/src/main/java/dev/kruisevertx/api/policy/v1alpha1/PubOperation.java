package dev.kruisevertx.api.policy.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** An operation a PodUnavailableBudget can protect pods from (OpenKruise's {@code PubOperation}). */
public enum PubOperation implements WireEnum {
    /** An update that makes a pod unavailable (in-place image update). */
    UPDATE("UPDATE"),
    /** A pod DELETE. */
    DELETE("DELETE"),
    /** A {@code pods/eviction} CREATE. */
    EVICT("EVICT"),
    /** An in-place resource resize (treated as UPDATE unless InPlacePodVerticalScaling is on). */
    RESIZE("RESIZE");

    private final String value;

    PubOperation(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a wire value; empty for a missing or unknown value. */
    public static Optional<PubOperation> fromValue(String value) {
        return WireEnum.parse(PubOperation.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
