package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/**
 * Values of {@code spec.volumeClaimUpdateStrategy.type} (OpenKruise's {@code VolumeClaimUpdateStrategyType}); parsed by
 * {@link VolumeClaimUpdateStrategy#typeValue()}.
 */
public enum VolumeClaimUpdateStrategyType implements WireEnum {
    /** PVCs keep their old template until they are deleted; the default. */
    ON_DELETE("OnDelete"),
    /** PVCs follow template changes (storage size only) as their pods are updated. */
    ON_POD_ROLLING_UPDATE("OnPodRollingUpdate");

    private final String value;

    VolumeClaimUpdateStrategyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<VolumeClaimUpdateStrategyType> fromValue(String value) {
        return WireEnum.parse(VolumeClaimUpdateStrategyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
