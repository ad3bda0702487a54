package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Types of a UnitedDeployment's {@code status.conditions}. */
public enum UnitedDeploymentConditionType implements WireEnum {
    SUBSET_PROVISIONED("SubsetProvisioned"),
    SUBSET_UPDATED("SubsetUpdated"),
    SUBSET_FAILURE("SubsetFailure"),
    UNITED_DEPLOYMENT_UPDATED("UnitedDeploymentUpdated");

    private final String value;

    UnitedDeploymentConditionType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    public static Optional<UnitedDeploymentConditionType> fromValue(String value) {
        return WireEnum.parse(UnitedDeploymentConditionType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
