package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;

import java.util.List;
import java.util.Objects;

/** Observed state of a StatefulSet (the same in v1alpha1 and v1beta1). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class StatefulSetStatus extends UnknownFields {
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Most recent metadata.generation the controller has acted on.")
    private long observedGeneration;

    @StatusReplicas
    @Required
    @JsonPropertyDescription("Pods created by this StatefulSet.")
    private int replicas;

    @Required
    @JsonPropertyDescription("Pods that are Ready.")
    private int readyReplicas;

    @Required
    @JsonPropertyDescription("Pods that have been Ready for at least minReadySeconds.")
    private int availableReplicas;

    @Required
    @JsonPropertyDescription("Pods at currentRevision.")
    private int currentReplicas;

    @Required
    @JsonPropertyDescription("Pods at updateRevision.")
    private int updatedReplicas;

    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Pods at updateRevision that are Ready.")
    private int updatedReadyReplicas;

    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Pods at updateRevision that are available.")
    private int updatedAvailableReplicas;

    @JsonPropertyDescription("Revision of the pods below the update point.")
    private String currentRevision;

    @JsonPropertyDescription("Revision of the current template.")
    private String updateRevision;

    @JsonPropertyDescription("Count of hash collisions, used to name the newest ControllerRevision uniquely.")
    private Integer collisionCount;

    @JsonPropertyDescription("Latest observations of the StatefulSet's state.")
    private List<StatefulSetCondition> conditions;

    @LabelSelector
    @JsonPropertyDescription("The selector in string form, for the scale subresource (HPA).")
    private String labelSelector;

    @JsonPropertyDescription("Per volumeClaimTemplate, how many replicas' PVCs are compatible with it and ready.")
    private List<VolumeClaimStatus> volumeClaims;

    public long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(long observedGeneration) {
        this.observedGeneration = observedGeneration;
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

    public int getAvailableReplicas() {
        return availableReplicas;
    }

    public void setAvailableReplicas(int availableReplicas) {
        this.availableReplicas = availableReplicas;
    }

    public int getCurrentReplicas() {
        return currentReplicas;
    }

    public void setCurrentReplicas(int currentReplicas) {
        this.currentReplicas = currentReplicas;
    }

    public int getUpdatedReplicas() {
        return updatedReplicas;
    }

    public void setUpdatedReplicas(int updatedReplicas) {
        this.updatedReplicas = updatedReplicas;
    }

    public int getUpdatedReadyReplicas() {
        return updatedReadyReplicas;
    }

    public void setUpdatedReadyReplicas(int updatedReadyReplicas) {
        this.updatedReadyReplicas = updatedReadyReplicas;
    }

    public int getUpdatedAvailableReplicas() {
        return updatedAvailableReplicas;
    }

    public void setUpdatedAvailableReplicas(int updatedAvailableReplicas) {
        this.updatedAvailableReplicas = updatedAvailableReplicas;
    }

    public String getCurrentRevision() {
        return currentRevision;
    }

    public void setCurrentRevision(String currentRevision) {
        this.currentRevision = currentRevision;
    }

    public String getUpdateRevision() {
        return updateRevision;
    }

    public void setUpdateRevision(String updateRevision) {
        this.updateRevision = updateRevision;
    }

    public Integer getCollisionCount() {
        return collisionCount;
    }

    public void setCollisionCount(Integer collisionCount) {
        this.collisionCount = collisionCount;
    }

    public List<StatefulSetCondition> getConditions() {
        return conditions;
    }

    public void setConditions(List<StatefulSetCondition> conditions) {
        this.conditions = conditions;
    }

    public String getLabelSelector() {
        return labelSelector;
    }

    public void setLabelSelector(String labelSelector) {
        this.labelSelector = labelSelector;
    }

    public List<VolumeClaimStatus> getVolumeClaims() {
        return volumeClaims;
    }

    public void setVolumeClaims(List<VolumeClaimStatus> volumeClaims) {
        this.volumeClaims = volumeClaims;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof StatefulSetStatus that)) return false;
        return observedGeneration == that.observedGeneration
                && replicas == that.replicas
                && readyReplicas == that.readyReplicas
                && availableReplicas == that.availableReplicas
                && currentReplicas == that.currentReplicas
                && updatedReplicas == that.updatedReplicas
                && updatedReadyReplicas == that.updatedReadyReplicas
                && updatedAvailableReplicas == that.updatedAvailableReplicas
                && Objects.equals(currentRevision, that.currentRevision)
                && Objects.equals(updateRevision, that.updateRevision)
                && Objects.equals(collisionCount, that.collisionCount)
                && Objects.equals(conditions, that.conditions)
                && Objects.equals(labelSelector, that.labelSelector)
                && Objects.equals(volumeClaims, that.volumeClaims)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(observedGeneration, replicas, readyReplicas, availableReplicas, currentReplicas, updatedReplicas, updatedReadyReplicas, updatedAvailableReplicas, currentRevision, updateRevision, collisionCount, conditions, labelSelector, volumeClaims, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "StatefulSetStatus{" + "observedGeneration=" + observedGeneration + ", " + "replicas=" + replicas + ", " + "readyReplicas=" + readyReplicas + ", " + "availableReplicas=" + availableReplicas + ", " + "currentReplicas=" + currentReplicas + ", " + "updatedReplicas=" + updatedReplicas + ", " + "updatedReadyReplicas=" + updatedReadyReplicas + ", " + "updatedAvailableReplicas=" + updatedAvailableReplicas + ", " + "currentRevision=" + currentRevision + ", " + "updateRevision=" + updateRevision + ", " + "collisionCount=" + collisionCount + ", " + "conditions=" + conditions + ", " + "labelSelector=" + labelSelector + ", " + "volumeClaims=" + volumeClaims + '}';
    }
}
