package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

/** Observed state of a PodProbeMarker. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PodProbeMarkerStatus extends UnknownFields {
    @Required
    @JsonPropertyDescription("observedGeneration is the most recent generation observed for this PodProbeMarker. It corresponds to the PodProbeMarker's generation, which is updated on mutation by the API Server.")
    private Long observedGeneration;
    @JsonPropertyDescription("matched Pods")
    private Long matchedPods;

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public Long getMatchedPods() {
        return matchedPods;
    }

    public void setMatchedPods(Long matchedPods) {
        this.matchedPods = matchedPods;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof PodProbeMarkerStatus that)) return false;
        return Objects.equals(observedGeneration, that.observedGeneration) && Objects.equals(matchedPods, that.matchedPods)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(observedGeneration, matchedPods, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "PodProbeMarkerStatus{" + "observedGeneration=" + observedGeneration + ", " + "matchedPods=" + matchedPods + '}';
    }
}
