package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** When a PersistentPodState forgets a pod's recorded state. */
public enum PersistentPodStateRetentionPolicyType implements WireEnum {
    /** The default: a pod's state goes once the workload scales below its ordinal and the pod is gone. */
    WHEN_SCALED("WhenScaled"),
    /** States are kept through scale-down and dropped only when the workload is deleted. */
    WHEN_DELETED("WhenDeleted");

    private final String value;

    PersistentPodStateRetentionPolicyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<PersistentPodStateRetentionPolicyType> fromValue(String value) {
        return WireEnum.parse(PersistentPodStateRetentionPolicyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
