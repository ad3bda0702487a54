package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.List;

/** The subsets of a UnitedDeployment and how pods are scheduled among them. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class Topology extends UnknownFields {
    @JsonPropertyDescription("One entry per subset workload the UnitedDeployment provisions and manages.")
    private List<Subset> subsets;
    @JsonPropertyDescription("How pods are scheduled between the subsets.")
    private UnitedDeploymentScheduleStrategy scheduleStrategy;

    /** The subsets, never null. */
    public List<Subset> subsets() {
        return subsets == null ? List.of() : subsets;
    }

    /** The schedule strategy, never null. */
    public UnitedDeploymentScheduleStrategy scheduleStrategy() {
        return scheduleStrategy == null ? new UnitedDeploymentScheduleStrategy() : scheduleStrategy;
    }

    public List<Subset> getSubsets() {
        return subsets;
    }

    public void setSubsets(List<Subset> subsets) {
        this.subsets = subsets;
    }

    public UnitedDeploymentScheduleStrategy getScheduleStrategy() {
        return scheduleStrategy;
    }

    public void setScheduleStrategy(UnitedDeploymentScheduleStrategy scheduleStrategy) {
        this.scheduleStrategy = scheduleStrategy;
    }
}
