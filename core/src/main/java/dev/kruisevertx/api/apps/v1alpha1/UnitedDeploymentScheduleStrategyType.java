package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of a UnitedDeployment's {@code spec.topology.scheduleStrategy.type}: Adaptive moves pods that cannot schedule to later subsets; Fixed (the default) keeps them where they are. */
public enum UnitedDeploymentScheduleStrategyType implements WireEnum {
    ADAPTIVE("Adaptive"),
    FIXED("Fixed");

    private final String value;

    UnitedDeploymentScheduleStrategyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    public static Optional<UnitedDeploymentScheduleStrategyType> fromValue(String value) {
        return WireEnum.parse(UnitedDeploymentScheduleStrategyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
