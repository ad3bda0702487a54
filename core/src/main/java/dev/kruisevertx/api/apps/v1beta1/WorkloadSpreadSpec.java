package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.apps.v1alpha1.TargetFilter;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadScheduleStrategy;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.List;

/** Desired state of a v1beta1 WorkloadSpread; only the subsets differ from v1alpha1. */
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
}
