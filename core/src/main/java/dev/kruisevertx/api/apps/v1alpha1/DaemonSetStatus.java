package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetCondition;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import java.util.List;
import java.util.Objects;

/** Observed state of an Advanced DaemonSet as served in v1alpha1 (updateRevision is daemonSetHash). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class DaemonSetStatus extends UnknownFields {
    @Required
    @JsonPropertyDescription("Nodes that run at least one daemon pod and are supposed to.")
    private int currentNumberScheduled;

    @Required
    @JsonPropertyDescription("Nodes that run a daemon pod but are not supposed to.")
    private int numberMisscheduled;

    @Required
    @JsonPropertyDescription("Nodes that should run the daemon pod.")
    private int desiredNumberScheduled;

    @Required
    @JsonPropertyDescription("Nodes whose daemon pod is Ready.")
    private int numberReady;

    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Most recent metadata.generation the controller has acted on.")
    private long observedGeneration;

    @Required
    @JsonPropertyDescription("Nodes running the updated daemon pod.")
    private int updatedNumberScheduled;

    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Nodes whose daemon pod has been ready for minReadySeconds.")
    private int numberAvailable;

    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Nodes that should run the daemon pod and have none available.")
    private int numberUnavailable;

    @JsonPropertyDescription("Count of hash collisions, used to name the newest ControllerRevision.")
    private Integer collisionCount;

    @JsonPropertyDescription("Latest observations of the DaemonSet's state.")
    private List<DaemonSetCondition> conditions;

    @JsonPropertyDescription("Revision (controller-revision-hash) of the current template.")
    private String daemonSetHash;

    public int getCurrentNumberScheduled() {
        return currentNumberScheduled;
    }

    public void setCurrentNumberScheduled(int currentNumberScheduled) {
        this.currentNumberScheduled = currentNumberScheduled;
    }

    public int getNumberMisscheduled() {
        return numberMisscheduled;
    }

    public void setNumberMisscheduled(int numberMisscheduled) {
        this.numberMisscheduled = numberMisscheduled;
    }

    public int getDesiredNumberScheduled() {
        return desiredNumberScheduled;
    }

    public void setDesiredNumberScheduled(int desiredNumberScheduled) {
        this.desiredNumberScheduled = desiredNumberScheduled;
    }

    public int getNumberReady() {
        return numberReady;
    }

    public void setNumberReady(int numberReady) {
        this.numberReady = numberReady;
    }

    public long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public int getUpdatedNumberScheduled() {
        return updatedNumberScheduled;
    }

    public void setUpdatedNumberScheduled(int updatedNumberScheduled) {
        this.updatedNumberScheduled = updatedNumberScheduled;
    }

    public int getNumberAvailable() {
        return numberAvailable;
    }

    public void setNumberAvailable(int numberAvailable) {
        this.numberAvailable = numberAvailable;
    }

    public int getNumberUnavailable() {
        return numberUnavailable;
    }

    public void setNumberUnavailable(int numberUnavailable) {
        this.numberUnavailable = numberUnavailable;
    }

    public Integer getCollisionCount() {
        return collisionCount;
    }

    public void setCollisionCount(Integer collisionCount) {
        this.collisionCount = collisionCount;
    }

    public List<DaemonSetCondition> getConditions() {
        return conditions;
    }

    public void setConditions(List<DaemonSetCondition> conditions) {
        this.conditions = conditions;
    }

    public String getDaemonSetHash() {
        return daemonSetHash;
    }

    public void setDaemonSetHash(String daemonSetHash) {
        this.daemonSetHash = daemonSetHash;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof DaemonSetStatus that)) return false;
        return currentNumberScheduled == that.currentNumberScheduled
                && numberMisscheduled == that.numberMisscheduled
                && desiredNumberScheduled == that.desiredNumberScheduled
                && numberReady == that.numberReady
                && observedGeneration == that.observedGeneration
                && updatedNumberScheduled == that.updatedNumberScheduled
                && numberAvailable == that.numberAvailable
                && numberUnavailable == that.numberUnavailable
                && Objects.equals(collisionCount, that.collisionCount)
                && Objects.equals(conditions, that.conditions)
                && Objects.equals(daemonSetHash, that.daemonSetHash)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(currentNumberScheduled, numberMisscheduled, desiredNumberScheduled, numberReady, observedGeneration, updatedNumberScheduled, numberAvailable, numberUnavailable, collisionCount, conditions, daemonSetHash, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "DaemonSetStatus{" + "currentNumberScheduled=" + currentNumberScheduled + ", " + "numberMisscheduled=" + numberMisscheduled + ", " + "desiredNumberScheduled=" + desiredNumberScheduled + ", " + "numberReady=" + numberReady + ", " + "observedGeneration=" + observedGeneration + ", " + "updatedNumberScheduled=" + updatedNumberScheduled + ", " + "numberAvailable=" + numberAvailable + ", " + "numberUnavailable=" + numberUnavailable + ", " + "collisionCount=" + collisionCount + ", " + "conditions=" + conditions + ", " + "daemonSetHash=" + daemonSetHash + '}';
    }
}
