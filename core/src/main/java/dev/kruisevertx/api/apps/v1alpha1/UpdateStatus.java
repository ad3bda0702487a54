package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.Map;

/** Progress of an update: the newest revision and the partition each subset is at. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UpdateStatus extends UnknownFields {
    @JsonPropertyDescription("Records the latest revision.")
    private String updatedRevision;
    @JsonPropertyDescription("Records the current partition.")
    private Map<String, Integer> currentPartitions;

    public String getUpdatedRevision() {
        return updatedRevision;
    }

    public void setUpdatedRevision(String updatedRevision) {
        this.updatedRevision = updatedRevision;
    }

    public Map<String, Integer> getCurrentPartitions() {
        return currentPartitions;
    }

    public void setCurrentPartitions(Map<String, Integer> currentPartitions) {
        this.currentPartitions = currentPartitions;
    }
}
