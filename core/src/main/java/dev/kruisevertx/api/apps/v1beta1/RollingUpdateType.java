package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of {@code spec.updateStrategy.rollingUpdate.rollingUpdateType} of an Advanced DaemonSet (v1beta1; v1alpha1 also accepts the deprecated {@code Surging}, converted to Standard). */
public enum RollingUpdateType implements WireEnum {
    /** Delete the old pod and create a new one (or, with maxSurge, the new one first); the default. */
    STANDARD("Standard"),
    /** Update the pod in place when only images and metadata changed, else as Standard. */
    IN_PLACE_IF_POSSIBLE("InPlaceIfPossible");

    private final String value;

    RollingUpdateType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<RollingUpdateType> fromValue(String value) {
        return WireEnum.parse(RollingUpdateType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
