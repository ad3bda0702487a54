package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of a UnitedDeployment's {@code spec.updateStrategy.type} (OpenKruise's UpdateStrategyType): Manual, the partition of each subset set by hand. */
public enum UnitedDeploymentUpdateStrategyType implements WireEnum {
    MANUAL("Manual");

    private final String value;

    UnitedDeploymentUpdateStrategyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    public static Optional<UnitedDeploymentUpdateStrategyType> fromValue(String value) {
        return WireEnum.parse(UnitedDeploymentUpdateStrategyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
