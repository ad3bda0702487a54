package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

/** Parameters of the Adaptive schedule strategy. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class AdaptiveUnitedDeploymentStrategy extends UnknownFields {
    @JsonPropertyDescription("Seconds a pod may stay unschedulable before it is rescheduled to a later subset with "
            + "room. Default is 30 seconds.")
    private Integer rescheduleCriticalSeconds;
    @JsonPropertyDescription("Seconds a subset stays marked unschedulable before it is tried again. Default is 300 "
            + "seconds.")
    private Integer unschedulableDuration;
    @JsonPropertyDescription("Keep pending pods and create temporary substitutes in another subset until they run; "
            + "disabled by default.")
    private Boolean reserveUnschedulablePods;

    public Integer getRescheduleCriticalSeconds() {
        return rescheduleCriticalSeconds;
    }

    public void setRescheduleCriticalSeconds(Integer rescheduleCriticalSeconds) {
        this.rescheduleCriticalSeconds = rescheduleCriticalSeconds;
    }

    public Integer getUnschedulableDuration() {
        return unschedulableDuration;
    }

    public void setUnschedulableDuration(Integer unschedulableDuration) {
        this.unschedulableDuration = unschedulableDuration;
    }

    public Boolean getReserveUnschedulablePods() {
        return reserveUnschedulablePods;
    }

    public void setReserveUnschedulablePods(Boolean reserveUnschedulablePods) {
        this.reserveUnschedulablePods = reserveUnschedulablePods;
    }
}
