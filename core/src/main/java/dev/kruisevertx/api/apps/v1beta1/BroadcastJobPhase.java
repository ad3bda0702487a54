package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of a BroadcastJob's {@code status.phase}; lower case, exactly as OpenKruise writes them. */
public enum BroadcastJobPhase implements WireEnum {
    COMPLETED("completed"),
    RUNNING("running"),
    PAUSED("paused"),
    FAILED("failed");

    private final String value;

    BroadcastJobPhase(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    public static Optional<BroadcastJobPhase> fromValue(String value) {
        return WireEnum.parse(BroadcastJobPhase.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
