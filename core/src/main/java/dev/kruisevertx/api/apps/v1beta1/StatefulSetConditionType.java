package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/**
 * Condition types an Advanced StatefulSet controller reports in {@code status.conditions} (OpenKruise's
 * {@code StatefulSetConditionType} constants).
 */
public enum StatefulSetConditionType implements WireEnum {
    /** A pod or one of its PVCs could not be created. */
    FAILED_CREATE_POD("FailedCreatePod"),
    /** A pod could not be updated. */
    FAILED_UPDATE_POD("FailedUpdatePod");

    private final String value;

    StatefulSetConditionType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<StatefulSetConditionType> fromValue(String value) {
        return WireEnum.parse(StatefulSetConditionType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
