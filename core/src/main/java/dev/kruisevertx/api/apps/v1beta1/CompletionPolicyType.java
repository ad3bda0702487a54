package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of a BroadcastJob's {@code spec.completionPolicy.type}: Always ends the job when every pod finished (or the deadline passed); Never keeps it running so nodes added later get a pod. */
public enum CompletionPolicyType implements WireEnum {
    ALWAYS("Always"),
    NEVER("Never");

    private final String value;

    CompletionPolicyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    public static Optional<CompletionPolicyType> fromValue(String value) {
        return WireEnum.parse(CompletionPolicyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
