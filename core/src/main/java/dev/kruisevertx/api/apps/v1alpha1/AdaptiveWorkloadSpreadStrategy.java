package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

/** Parameters of the Adaptive schedule strategy of a WorkloadSpread. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class AdaptiveWorkloadSpreadStrategy extends UnknownFields {
    @JsonPropertyDescription("Turns off the webhook's check that a subset's nodes could take the pod; false by "
            + "default.")
    private Boolean disableSimulationSchedule;
    @JsonPropertyDescription("Seconds a pod may stay unschedulable in its subset before the controller deletes it "
            + "so that it is recreated in a subset with room.")
    private Integer rescheduleCriticalSeconds;

    public Boolean getDisableSimulationSchedule() {
        return disableSimulationSchedule;
    }

    public void setDisableSimulationSchedule(Boolean disableSimulationSchedule) {
        this.disableSimulationSchedule = disableSimulationSchedule;
    }

    public Integer getRescheduleCriticalSeconds() {
        return rescheduleCriticalSeconds;
    }

    public void setRescheduleCriticalSeconds(Integer rescheduleCriticalSeconds) {
        this.rescheduleCriticalSeconds = rescheduleCriticalSeconds;
    }
}
