package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.kubernetes.api.model.LabelSelector;

import java.util.List;

/**
 * Narrows a WorkloadSpread to part of its workload's pods: those matching {@code selector}, counted against the sum
 * of the integer fields named by {@code replicasPathList} (dot paths into the workload, array indexes as numbers).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TargetFilter extends UnknownFields {
    @JsonPropertyDescription("Only pods matching this selector are spread.")
    private LabelSelector selector;
    @JsonPropertyDescription("Dot-separated paths into the workload (e.g. spec.replicas, subsets.1.replicas) whose "
            + "integer values add up to the number of pods the filter selects.")
    private List<String> replicasPathList;

    public LabelSelector getSelector() {
        return selector;
    }

    public void setSelector(LabelSelector selector) {
        this.selector = selector;
    }

    public List<String> getReplicasPathList() {
        return replicasPathList;
    }

    public void setReplicasPathList(List<String> replicasPathList) {
        this.replicasPathList = replicasPathList;
    }
}
