package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Observed state of a ContainerRecreateRequest. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ContainerRecreateRequestStatus extends UnknownFields {
    @Required
    @JsonPropertyDescription("Phase of this ContainerRecreateRequest, e.g. Pending, Recreating, Completed")
    private String phase;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Represents time when the ContainerRecreateRequest was completed. It is not guaranteed to "
            + "be set in happens-before order across separate operations. It is represented in RFC3339 form and is "
            + "in UTC.")
    private String completionTime;
    @JsonPropertyDescription("A human readable message indicating details about this ContainerRecreateRequest.")
    private String message;
    @JsonPropertyDescription("ContainerRecreateStates contains the recreation states of the containers.")
    private List<ContainerRecreateRequestContainerRecreateState> containerRecreateStates;

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    /** The phase as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<ContainerRecreateRequestPhase> phaseValue() {
        return ContainerRecreateRequestPhase.fromValue(phase);
    }

    public String getCompletionTime() {
        return completionTime;
    }

    public void setCompletionTime(String completionTime) {
        this.completionTime = completionTime;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    public List<ContainerRecreateRequestContainerRecreateState> getContainerRecreateStates() {
        return containerRecreateStates;
    }

    public void setContainerRecreateStates(List<ContainerRecreateRequestContainerRecreateState> states) {
        this.containerRecreateStates = states;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ContainerRecreateRequestStatus that)) return false;
        return Objects.equals(phase, that.phase) && Objects.equals(completionTime, that.completionTime)
                && Objects.equals(message, that.message)
                && Objects.equals(containerRecreateStates, that.containerRecreateStates) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(phase, completionTime, message, containerRecreateStates, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ContainerRecreateRequestStatus{phase=" + phase + ", completionTime=" + completionTime + ", message="
                + message + ", containerRecreateStates=" + containerRecreateStates + '}';
    }
}
