package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import java.util.Objects;

/** Observed state of a SidecarSet. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SidecarSetStatus extends UnknownFields {
    @JsonPropertyDescription("Generation the status was computed from.")
    private Long observedGeneration;

    @JsonPropertyDescription("Pods matched by the SidecarSet.")
    private Integer matchedPods;

    @JsonPropertyDescription("Matched pods injected with the latest revision.")
    private Integer updatedPods;

    @JsonPropertyDescription("Matched pods that are ready.")
    private Integer readyPods;

    @JsonPropertyDescription("Updated pods that are ready.")
    private Integer updatedReadyPods;

    @JsonPropertyDescription("Name of the ControllerRevision of the current spec.")
    private String latestRevision;

    @JsonPropertyDescription("Hash collisions of revision names, used as a salt.")
    private Integer collisionCount;

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public Integer getMatchedPods() {
        return matchedPods;
    }

    public void setMatchedPods(Integer matchedPods) {
        this.matchedPods = matchedPods;
    }

    public Integer getUpdatedPods() {
        return updatedPods;
    }

    public void setUpdatedPods(Integer updatedPods) {
        this.updatedPods = updatedPods;
    }

    public Integer getReadyPods() {
        return readyPods;
    }

    public void setReadyPods(Integer readyPods) {
        this.readyPods = readyPods;
    }

    public Integer getUpdatedReadyPods() {
        return updatedReadyPods;
    }

    public void setUpdatedReadyPods(Integer updatedReadyPods) {
        this.updatedReadyPods = updatedReadyPods;
    }

    public String getLatestRevision() {
        return latestRevision;
    }

    public void setLatestRevision(String latestRevision) {
        this.latestRevision = latestRevision;
    }

    public Integer getCollisionCount() {
        return collisionCount;
    }

    public void setCollisionCount(Integer collisionCount) {
        this.collisionCount = collisionCount;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof SidecarSetStatus that)) return false;
        return Objects.equals(observedGeneration, that.observedGeneration) && Objects.equals(matchedPods, that.matchedPods) && Objects.equals(updatedPods, that.updatedPods) && Objects.equals(readyPods, that.readyPods) && Objects.equals(updatedReadyPods, that.updatedReadyPods) && Objects.equals(latestRevision, that.latestRevision) && Objects.equals(collisionCount, that.collisionCount)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(observedGeneration, matchedPods, updatedPods, readyPods, updatedReadyPods, latestRevision, collisionCount, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "SidecarSetStatus{" + "observedGeneration=" + observedGeneration + ", " + "matchedPods=" + matchedPods + ", " + "updatedPods=" + updatedPods + ", " + "readyPods=" + readyPods + ", " + "updatedReadyPods=" + updatedReadyPods + ", " + "latestRevision=" + latestRevision + ", " + "collisionCount=" + collisionCount + '}';
    }
}
