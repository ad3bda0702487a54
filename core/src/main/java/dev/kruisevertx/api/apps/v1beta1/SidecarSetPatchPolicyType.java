package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of {@code patchPodMetadata[].patchPolicy} of a SidecarSet (OpenKruise's SidecarSetPatchPolicyType). */
public enum SidecarSetPatchPolicyType implements WireEnum {
    /** A value the pod already has is kept; the default. */
    RETAIN("Retain"),
    /** The SidecarSet's value replaces the pod's. */
    OVERWRITE("Overwrite"),
    /** The value is a JSON object merged into the pod's JSON value. */
    MERGE_PATCH_JSON("MergePatchJson");

    private final String value;

    SidecarSetPatchPolicyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<SidecarSetPatchPolicyType> fromValue(String value) {
        return WireEnum.parse(SidecarSetPatchPolicyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
