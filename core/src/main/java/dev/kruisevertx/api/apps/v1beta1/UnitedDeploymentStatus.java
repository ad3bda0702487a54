package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentCondition;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetStatus;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;

import java.util.List;

/**
 * Observed state of a v1beta1 UnitedDeployment: v1alpha1's without {@code subsetReplicas} and {@code updateStatus};
 * {@code updatedRevision} is a top-level field and each subset's target replicas and partition are in its
 * {@code subsetStatuses} entry. replicas, updatedReplicas and currentRevision are always written, as
 * OpenKruise does; the other counters are omitted when zero.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UnitedDeploymentStatus extends UnknownFields {
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Most recent metadata.generation the controller has acted on.")
    private long observedGeneration;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("The number of ready replicas.")
    private int readyReplicas;
    @StatusReplicas
    @Required
    @JsonPropertyDescription("Replicas is the most recently observed number of replicas.")
    private int replicas;
    @Required
    @JsonPropertyDescription("The number of pods in current version.")
    private int updatedReplicas;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("The number of reserved pods in temporary adaptive strategy.")
    private int reservedPods;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("The number of ready current revision replicas for this UnitedDeployment.")
    private int updatedReadyReplicas;
    @JsonPropertyDescription("Count of hash collisions, used to name the newest ControllerRevision uniquely.")
    private Integer collisionCount;
    @Required
    @JsonPropertyDescription("CurrentRevision, if not empty, indicates the current version of the UnitedDeployment.")
    private String currentRevision = "";
    @JsonPropertyDescription("UpdatedRevision, if not empty, indicates the latest version of the UnitedDeployment.")
    private String updatedRevision;
    @JsonPropertyDescription("Record the conditions of each subset.")
    private List<UnitedDeploymentSubsetStatus> subsetStatuses;
    @JsonPropertyDescription("Represents the latest available observations of a UnitedDeployment's current state.")
    private List<UnitedDeploymentCondition> conditions;
    @LabelSelector
    @JsonPropertyDescription("The selector in string form, for the scale subresource (HPA).")
    private String labelSelector;

    public long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public int getReadyReplicas() {
        return readyReplicas;
    }

    public void setReadyReplicas(int readyReplicas) {
        this.readyReplicas = readyReplicas;
    }

    public int getReplicas() {
        return replicas;
    }

    public void setReplicas(int replicas) {
        this.replicas = replicas;
    }

    public int getUpdatedReplicas() {
        return updatedReplicas;
    }

    public void setUpdatedReplicas(int updatedReplicas) {
        this.updatedReplicas = updatedReplicas;
    }

    public int getReservedPods() {
        return reservedPods;
    }

    public void setReservedPods(int reservedPods) {
        this.reservedPods = reservedPods;
    }

    public int getUpdatedReadyReplicas() {
        return updatedReadyReplicas;
    }

    public void setUpdatedReadyReplicas(int updatedReadyReplicas) {
        this.updatedReadyReplicas = updatedReadyReplicas;
    }

    public Integer getCollisionCount() {
        return collisionCount;
    }

    public void setCollisionCount(Integer collisionCount) {
        this.collisionCount = collisionCount;
    }

    public String getCurrentRevision() {
        return currentRevision;
    }

    public void setCurrentRevision(String currentRevision) {
        this.currentRevision = currentRevision;
    }

    public String getUpdatedRevision() {
        return updatedRevision;
    }

    public void setUpdatedRevision(String updatedRevision) {
        this.updatedRevision = updatedRevision;
    }

    public List<UnitedDeploymentSubsetStatus> getSubsetStatuses() {
        return subsetStatuses;
    }

    public void setSubsetStatuses(List<UnitedDeploymentSubsetStatus> subsetStatuses) {
        this.subsetStatuses = subsetStatuses;
    }

    public List<UnitedDeploymentCondition> getConditions() {
        return conditions;
    }

    public void setConditions(List<UnitedDeploymentCondition> conditions) {
        this.conditions = conditions;
    }

    public String getLabelSelector() {
        return labelSelector;
    }

    public void setLabelSelector(String labelSelector) {
        this.labelSelector = labelSelector;
    }
}
