package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of {@code containers[].podInjectPolicy} of a SidecarSet (OpenKruise's PodInjectPolicyType). */
public enum PodInjectPolicyType implements WireEnum {
    /** Injected in front of the pod's containers; the default. */
    BEFORE_APP_CONTAINER("BeforeAppContainer"),
    /** Injected after the pod's containers. */
    AFTER_APP_CONTAINER("AfterAppContainer");

    private final String value;

    PodInjectPolicyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<PodInjectPolicyType> fromValue(String value) {
        return WireEnum.parse(PodInjectPolicyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
