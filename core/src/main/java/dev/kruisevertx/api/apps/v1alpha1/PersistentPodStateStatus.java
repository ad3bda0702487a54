package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.Map;
import java.util.Objects;

/** The recorded pod states, by pod name. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PersistentPodStateStatus extends UnknownFields {
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("The most recent generation observed for this PersistentPodState.")
    private long observedGeneration;
    @JsonPropertyDescription("Pod name -> what was recorded when the pod was ready.")
    private Map<String, PodState> podStates;

    public long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public Map<String, PodState> getPodStates() {
        return podStates;
    }

    public void setPodStates(Map<String, PodState> podStates) {
        this.podStates = podStates;
    }

    /** The states, never null. */
    public Map<String, PodState> states() {
        return podStates == null ? Map.of() : podStates;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PersistentPodStateStatus s && observedGeneration == s.observedGeneration
                && states().equals(s.states()) && unknownFieldsEqual(s);
    }

    @Override
    public int hashCode() {
        return Objects.hash(observedGeneration, states());
    }
}
