package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import dev.kruisevertx.api.common.SchemaEnum;

import java.time.Duration;

/** How pods are scheduled between subsets: Fixed (default) or Adaptive. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UnitedDeploymentScheduleStrategy extends UnknownFields {
    public static final String ADAPTIVE = UnitedDeploymentScheduleStrategyType.ADAPTIVE.value();
    public static final String FIXED = UnitedDeploymentScheduleStrategyType.FIXED.value();
    public static final Duration DEFAULT_RESCHEDULE_CRITICAL = Duration.ofSeconds(30);
    public static final Duration DEFAULT_UNSCHEDULABLE_DURATION = Duration.ofSeconds(300);

    @SchemaEnum({"Adaptive", "Fixed", ""})
    @JsonPropertyDescription("Type of the schedule strategy. Default is Fixed.")
    private String type;
    @JsonPropertyDescription("Parameters of the Adaptive type.")
    private AdaptiveUnitedDeploymentStrategy adaptive;

    public boolean adaptiveMode() {
        return typeValue().orElse(null) == UnitedDeploymentScheduleStrategyType.ADAPTIVE;
    }

    /** Adaptive with reservation: pending pods stay and temporary pods stand in for them elsewhere. */
    public boolean reservationMode() {
        return adaptiveMode() && adaptive != null && Boolean.TRUE.equals(adaptive.getReserveUnschedulablePods());
    }

    public Duration rescheduleCriticalDuration() {
        return adaptive == null || adaptive.getRescheduleCriticalSeconds() == null ? DEFAULT_RESCHEDULE_CRITICAL
                : Duration.ofSeconds(adaptive.getRescheduleCriticalSeconds());
    }

    public Duration unschedulableDuration() {
        return adaptive == null || adaptive.getUnschedulableDuration() == null ? DEFAULT_UNSCHEDULABLE_DURATION
                : Duration.ofSeconds(adaptive.getUnschedulableDuration());
    }

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    public AdaptiveUnitedDeploymentStrategy getAdaptive() {
        return adaptive;
    }

    public void setAdaptive(AdaptiveUnitedDeploymentStrategy adaptive) {
        this.adaptive = adaptive;
    }

    /** The type as an enum; empty when unset or unknown. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public java.util.Optional<UnitedDeploymentScheduleStrategyType> typeValue() {
        return UnitedDeploymentScheduleStrategyType.fromValue(type);
    }
}
