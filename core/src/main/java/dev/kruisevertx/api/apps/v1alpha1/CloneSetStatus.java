package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;

import java.util.List;
import java.util.Objects;

/**
 * Observed state of a CloneSet. The five pod counts OpenKruise always writes are primitives and always serialized;
 * the counters OpenKruise omits when zero are omitted when zero here too.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class CloneSetStatus extends UnknownFields {
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Most recent metadata.generation the controller has acted on.")
    private long observedGeneration;
    @StatusReplicas
    @Required
    @JsonPropertyDescription("Pods created by this CloneSet.")
    private int replicas;
    @Required
    @JsonPropertyDescription("Pods of this CloneSet that are Ready.")
    private int readyReplicas;
    @Required
    @JsonPropertyDescription("Pods of this CloneSet that have been Ready for at least minReadySeconds.")
    private int availableReplicas;
    @Required
    @JsonPropertyDescription("Pods at the update revision.")
    private int updatedReplicas;
    @Required
    @JsonPropertyDescription("Pods at the update revision that are Ready.")
    private int updatedReadyReplicas;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Pods at the update revision that have been Ready for at least minReadySeconds.")
    private int updatedAvailableReplicas;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Pods that should be at the update revision: replicas minus partition.")
    private int expectedUpdatedReplicas;
    @JsonPropertyDescription("Name of the newest revision (the ControllerRevision of the current template).")
    private String updateRevision;
    @JsonPropertyDescription("Name of the revision all pods were at when the last update finished.")
    private String currentRevision;
    @JsonPropertyDescription("Count of hash collisions, used to name the newest ControllerRevision uniquely.")
    private Integer collisionCount;
    @JsonPropertyDescription("Latest observations of the CloneSet's state.")
    private List<CloneSetCondition> conditions;
    @LabelSelector
    @JsonPropertyDescription("The selector in string form, for the scale subresource (HPA).")
    private String labelSelector;

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

    public int getExpectedUpdatedReplicas() {
        return expectedUpdatedReplicas;
    }

    public void setExpectedUpdatedReplicas(int expectedUpdatedReplicas) {
        this.expectedUpdatedReplicas = expectedUpdatedReplicas;
    }

    public String getUpdateRevision() {
        return updateRevision;
    }

    public void setUpdateRevision(String updateRevision) {
        this.updateRevision = updateRevision;
    }

    public String getCurrentRevision() {
        return currentRevision;
    }

    public void setCurrentRevision(String currentRevision) {
        this.currentRevision = currentRevision;
    }

    public Integer getCollisionCount() {
        return collisionCount;
    }

    public void setCollisionCount(Integer collisionCount) {
        this.collisionCount = collisionCount;
    }

    public List<CloneSetCondition> getConditions() {
        return conditions;
    }

    public void setConditions(List<CloneSetCondition> conditions) {
        this.conditions = conditions;
    }

    public String getLabelSelector() {
        return labelSelector;
    }

    public void setLabelSelector(String labelSelector) {
        this.labelSelector = labelSelector;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof CloneSetStatus that)) return false;
        return observedGeneration == that.observedGeneration
                && replicas == that.replicas
                && readyReplicas == that.readyReplicas
                && availableReplicas == that.availableReplicas
                && updatedReplicas == that.updatedReplicas
                && updatedReadyReplicas == that.updatedReadyReplicas
                && updatedAvailableReplicas == that.updatedAvailableReplicas
                && expectedUpdatedReplicas == that.expectedUpdatedReplicas
                && Objects.equals(updateRevision, that.updateRevision)
                && Objects.equals(currentRevision, that.currentRevision)
                && Objects.equals(collisionCount, that.collisionCount)
                && Objects.equals(conditions, that.conditions)
                && Objects.equals(labelSelector, that.labelSelector)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(observedGeneration, replicas, readyReplicas, availableReplicas, updatedReplicas,
                updatedReadyReplicas, updatedAvailableReplicas, expectedUpdatedReplicas, updateRevision,
                currentRevision, collisionCount, conditions, labelSelector, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "CloneSetStatus{observedGeneration=" + observedGeneration
                + ", replicas=" + replicas
                + ", readyReplicas=" + readyReplicas
                + ", availableReplicas=" + availableReplicas
                + ", updatedReplicas=" + updatedReplicas
                + ", updatedReadyReplicas=" + updatedReadyReplicas
                + ", updatedAvailableReplicas=" + updatedAvailableReplicas
                + ", expectedUpdatedReplicas=" + expectedUpdatedReplicas
                + ", updateRevision=" + updateRevision
                + ", currentRevision=" + currentRevision
                + ", collisionCount=" + collisionCount
                + ", conditions=" + conditions
                + ", labelSelector=" + labelSelector + '}';
    }
}
