package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.Objects;
import java.util.Optional;

/** Where the recreation of one container stands. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ContainerRecreateRequestContainerRecreateState extends UnknownFields {
    @Required
    @JsonPropertyDescription("Name of the container.")
    private String name;
    @Required
    @JsonPropertyDescription("Phase indicates the recreation phase of the container.")
    private String phase;
    @JsonPropertyDescription("A human readable message indicating details about this state.")
    private String message;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Containers are killed by kruise daemon.")
    private boolean isKilled;

    public ContainerRecreateRequestContainerRecreateState() {
    }

    public ContainerRecreateRequestContainerRecreateState(String name, String phase, String message, boolean isKilled) {
        this.name = name;
        this.phase = phase;
        this.message = message;
        this.isKilled = isKilled;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

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

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    // Named so Jackson writes the JSON field "isKilled", as OpenKruise does.
    @com.fasterxml.jackson.annotation.JsonProperty("isKilled")
    public boolean getIsKilled() {
        return isKilled;
    }

    @com.fasterxml.jackson.annotation.JsonProperty("isKilled")
    public void setIsKilled(boolean isKilled) {
        this.isKilled = isKilled;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ContainerRecreateRequestContainerRecreateState that)) return false;
        return isKilled == that.isKilled && Objects.equals(name, that.name) && Objects.equals(phase, that.phase)
                && Objects.equals(message, that.message) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, phase, message, isKilled, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ContainerRecreateState{name=" + name + ", phase=" + phase + ", message=" + message + ", isKilled="
                + isKilled + '}';
    }
}
