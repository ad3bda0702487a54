package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.List;

/** What the controller observed of one subset. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UnitedDeploymentSubsetStatus extends UnknownFields {
    @JsonPropertyDescription("Subset name specified in Topology.Subsets")
    private String name;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Records the current replicas.")
    private int replicas;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Records the current ready replicas.")
    private int readyReplicas;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Records the current partition.")
    private int partition;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Records the reserved pods in the subset.")
    private int reservedPods;
    @JsonPropertyDescription("Conditions is an array of current observed subset conditions.")
    private List<UnitedDeploymentSubsetCondition> conditions;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public int getReplicas() {
        return replicas;
    }

    public void setReplicas(int replicas) {
        this.replicas = replicas;
    }

    public int getReadyReplicas() {
        return readyReplicas;
    }

    public void setReadyReplicas(int readyReplicas) {
        this.readyReplicas = readyReplicas;
    }

    public int getPartition() {
        return partition;
    }

    public void setPartition(int partition) {
        this.partition = partition;
    }

    public int getReservedPods() {
        return reservedPods;
    }

    public void setReservedPods(int reservedPods) {
        this.reservedPods = reservedPods;
    }

    public List<UnitedDeploymentSubsetCondition> getConditions() {
        return conditions;
    }

    public void setConditions(List<UnitedDeploymentSubsetCondition> conditions) {
        this.conditions = conditions;
    }
}
