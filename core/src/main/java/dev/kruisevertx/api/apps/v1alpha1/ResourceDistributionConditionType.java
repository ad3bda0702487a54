package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** The six condition types of a ResourceDistribution, in OpenKruise's status order. */
public enum ResourceDistributionConditionType implements WireEnum {
    /** Reading a target namespace's copy failed. */
    GET_RESOURCE_FAILED("GetResourceFailed"),
    CREATE_RESOURCE_FAILED("CreateResourceFailed"),
    UPDATE_RESOURCE_FAILED("UpdateResourceFailed"),
    /** Removing the copy from a namespace that stopped matching failed. */
    DELETE_RESOURCE_FAILED("DeleteResourceFailed"),
    /** A target namespace holds a same-named resource the distribution does not own; it is left alone. */
    CONFLICT_OCCURRED("ConflictOccurred"),
    /** A listed namespace does not exist or is terminating. */
    NAMESPACE_NOT_EXISTS("NamespaceNotExists");

    private final String value;

    ResourceDistributionConditionType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<ResourceDistributionConditionType> fromValue(String value) {
        return WireEnum.parse(ResourceDistributionConditionType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
