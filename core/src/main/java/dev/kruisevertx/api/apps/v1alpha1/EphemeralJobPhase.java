package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of an EphemeralJob's {@code status.phase}, as OpenKruise v1.9.0 writes them. */
public enum EphemeralJobPhase implements WireEnum {
    SUCCEEDED("Succeeded"),
    FAILED("Failed"),
    WAITING("Waiting"),
    RUNNING("Running"),
    PAUSED("Paused"),
    ERROR("Error"),
    UNKNOWN("Unknown");

    private final String value;

    EphemeralJobPhase(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    public static Optional<EphemeralJobPhase> fromValue(String value) {
        return WireEnum.parse(EphemeralJobPhase.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
