package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of {@code spec.scheduleStrategy.type} of a WorkloadSpread; empty means Fixed. */
public enum WorkloadSpreadScheduleStrategyType implements WireEnum {
    /** Pods that stay unschedulable in a subset are rescheduled to a later subset. */
    ADAPTIVE("Adaptive"),
    /** Pods stay in the subset chosen at creation. */
    FIXED("Fixed");

    private final String value;

    WorkloadSpreadScheduleStrategyType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<WorkloadSpreadScheduleStrategyType> fromValue(String value) {
        return WireEnum.parse(WorkloadSpreadScheduleStrategyType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
