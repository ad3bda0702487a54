package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/**
 * Values of {@code spec.podManagementPolicy} of an Advanced StatefulSet (Kubernetes' {@code PodManagementPolicyType},
 * which OpenKruise reuses); parsed by {@link StatefulSetSpec#podManagementPolicyValue()}.
 */
public enum PodManagementPolicyType implements WireEnum {
    /** One pod at a time, in ordinal order, each Ready before the next; the default. */
    ORDERED_READY("OrderedReady"),
    /** Pods are created and deleted without waiting for each other. */
    PARALLEL("Parallel");

    private final String value;

    PodManagementPolicyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<PodManagementPolicyType> fromValue(String value) {
        return WireEnum.parse(PodManagementPolicyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
