package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.List;
import java.util.Map;

/** Observed state of a v1beta1 WorkloadSpread; the controller writes it as v1alpha1. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
public class WorkloadSpreadStatus extends UnknownFields {
    @JsonPropertyDescription("The generation of the spec this status was computed from.")
    private Long observedGeneration;
    @JsonPropertyDescription("One entry per subset, in spec order.")
    private List<WorkloadSpreadSubsetStatus> subsetStatuses;
    @JsonPropertyDescription("The subset entries per pod version, for workloads with versioned status.")
    private Map<String, List<WorkloadSpreadSubsetStatus>> versionedSubsetStatuses;

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public List<WorkloadSpreadSubsetStatus> getSubsetStatuses() {
        return subsetStatuses;
    }

    public void setSubsetStatuses(List<WorkloadSpreadSubsetStatus> subsetStatuses) {
        this.subsetStatuses = subsetStatuses;
    }

    public Map<String, List<WorkloadSpreadSubsetStatus>> getVersionedSubsetStatuses() {
        return versionedSubsetStatuses;
    }

    public void setVersionedSubsetStatuses(Map<String, List<WorkloadSpreadSubsetStatus>> versionedSubsetStatuses) {
        this.versionedSubsetStatuses = versionedSubsetStatuses;
    }
}
