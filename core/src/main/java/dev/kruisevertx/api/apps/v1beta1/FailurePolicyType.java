package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of a BroadcastJob's {@code spec.failurePolicy.type}: what a failed pod does to the job. */
public enum FailurePolicyType implements WireEnum {
    CONTINUE("Continue"),
    FAIL_FAST("FailFast"),
    PAUSE("Pause");

    private final String value;

    FailurePolicyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    public static Optional<FailurePolicyType> fromValue(String value) {
        return WireEnum.parse(FailurePolicyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
