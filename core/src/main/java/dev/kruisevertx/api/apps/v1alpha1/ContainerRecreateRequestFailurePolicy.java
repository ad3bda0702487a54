package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/**
 * Values of {@code spec.strategy.failurePolicy} (OpenKruise's {@code ContainerRecreateRequestFailurePolicyType}); the
 * webhook defaults an empty one to {@link #FAIL}.
 */
public enum ContainerRecreateRequestFailurePolicy implements WireEnum {
    /** The request ends as soon as one container fails to be recreated. */
    FAIL("Fail"),
    /** A failed container is recorded and the others go on. */
    IGNORE("Ignore");

    private final String value;

    ContainerRecreateRequestFailurePolicy(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<ContainerRecreateRequestFailurePolicy> fromValue(String value) {
        return WireEnum.parse(ContainerRecreateRequestFailurePolicy.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
