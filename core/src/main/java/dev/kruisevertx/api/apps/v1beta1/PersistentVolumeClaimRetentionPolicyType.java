package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/**
 * Values of {@code spec.persistentVolumeClaimRetentionPolicy.whenDeleted} and {@code whenScaled} (OpenKruise's
 * {@code PersistentVolumeClaimRetentionPolicyType}); parsed by the accessors of
 * {@link StatefulSetPersistentVolumeClaimRetentionPolicy}.
 */
public enum PersistentVolumeClaimRetentionPolicyType implements WireEnum {
    /** Keep the PVCs; the default. */
    RETAIN("Retain"),
    /** Delete the PVCs with the StatefulSet (whenDeleted) or with the scaled-down pod (whenScaled). */
    DELETE("Delete");

    private final String value;

    PersistentVolumeClaimRetentionPolicyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<PersistentVolumeClaimRetentionPolicyType> fromValue(String value) {
        return WireEnum.parse(PersistentVolumeClaimRetentionPolicyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
