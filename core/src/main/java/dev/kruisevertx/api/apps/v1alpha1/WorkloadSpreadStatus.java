package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Observed state of a WorkloadSpread: one entry per subset, overall and per pod version (so that during a rolling
 * update the pods of the new version are spread on their own while the old ones are still being deleted).
 */
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

    /** The subset entries, never null. */
    public List<WorkloadSpreadSubsetStatus> subsetStatuses() {
        return subsetStatuses == null ? new ArrayList<>() : subsetStatuses;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WorkloadSpreadStatus s && Objects.equals(observedGeneration, s.observedGeneration)
                && Objects.equals(subsetStatuses, s.subsetStatuses)
                && Objects.equals(versionedSubsetStatuses, s.versionedSubsetStatuses) && unknownFieldsEqual(s);
    }

    @Override
    public int hashCode() {
        return Objects.hash(observedGeneration, subsetStatuses, versionedSubsetStatuses);
    }
}
