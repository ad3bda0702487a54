package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Types of a subset's conditions in {@code status.subsetStatuses}: Schedulable is False while new pods of the subset would stay pending. */
public enum UnitedDeploymentSubsetConditionType implements WireEnum {
    SCHEDULABLE("Schedulable");

    private final String value;

    UnitedDeploymentSubsetConditionType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    public static Optional<UnitedDeploymentSubsetConditionType> fromValue(String value) {
        return WireEnum.parse(UnitedDeploymentSubsetConditionType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
