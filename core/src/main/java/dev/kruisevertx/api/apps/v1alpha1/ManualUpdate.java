package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.Map;

/** Manual update: the partition of each subset, by subset name. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ManualUpdate extends UnknownFields {
    @JsonPropertyDescription("Indicates number of subset partition.")
    private Map<String, Integer> partitions;

    public Map<String, Integer> getPartitions() {
        return partitions;
    }

    public void setPartitions(Map<String, Integer> partitions) {
        this.partitions = partitions;
    }
}
