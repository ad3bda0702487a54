package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of {@code containers[].shareVolumePolicy.type} of a SidecarSet (OpenKruise's ShareVolumePolicyType). */
public enum ShareVolumePolicyType implements WireEnum {
    /** The sidecar mounts every volume the pod's containers mount. */
    ENABLED("enabled"),
    /** The sidecar mounts only its own volumes; the default. */
    DISABLED("disabled");

    private final String value;

    ShareVolumePolicyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<ShareVolumePolicyType> fromValue(String value) {
        return WireEnum.parse(ShareVolumePolicyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
