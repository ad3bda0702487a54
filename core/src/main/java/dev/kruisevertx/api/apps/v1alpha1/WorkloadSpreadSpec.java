package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.ArrayList;
import java.util.List;

/** Desired state of a WorkloadSpread: the workload, an optional pod filter, the ordered subsets and the strategy. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class WorkloadSpreadSpec extends UnknownFields {
    @Required
    @JsonPropertyDescription("The workload whose pods are spread.")
    private TargetReference targetRef;
    @JsonPropertyDescription("Limits the spread to some of the workload's pods.")
    private TargetFilter targetFilter;
    @Required
    @JsonPropertyDescription("The subsets, in the order new pods fill them; names are unique.")
    private List<WorkloadSpreadSubset> subsets;
    @JsonPropertyDescription("How pods that cannot be scheduled in their subset are treated.")
    private WorkloadSpreadScheduleStrategy scheduleStrategy;

    public TargetReference getTargetRef() {
        return targetRef;
    }

    public void setTargetRef(TargetReference targetRef) {
        this.targetRef = targetRef;
    }

    public TargetFilter getTargetFilter() {
        return targetFilter;
    }

    public void setTargetFilter(TargetFilter targetFilter) {
        this.targetFilter = targetFilter;
    }

    public List<WorkloadSpreadSubset> getSubsets() {
        return subsets;
    }

    public void setSubsets(List<WorkloadSpreadSubset> subsets) {
        this.subsets = subsets;
    }

    public WorkloadSpreadScheduleStrategy getScheduleStrategy() {
        return scheduleStrategy;
    }

    public void setScheduleStrategy(WorkloadSpreadScheduleStrategy scheduleStrategy) {
        this.scheduleStrategy = scheduleStrategy;
    }

    /** The subsets, never null. */
    public List<WorkloadSpreadSubset> subsets() {
        return subsets == null ? new ArrayList<>() : subsets;
    }

    /** The schedule strategy, never null. */
    public WorkloadSpreadScheduleStrategy scheduleStrategy() {
        return scheduleStrategy == null ? new WorkloadSpreadScheduleStrategy() : scheduleStrategy;
    }
}
