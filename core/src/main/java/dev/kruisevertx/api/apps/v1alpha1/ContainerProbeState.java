package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;
import java.util.Optional;

/** The result of one probe. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ContainerProbeState extends UnknownFields {
    @Required
    @JsonPropertyDescription("Name is podProbeMarker.Name#probe.Name")
    private String name;
    @Required
    @JsonPropertyDescription("container probe exec state, True or False")
    private String state;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Last time we probed the condition.")
    private String lastProbeTime;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Last time the condition transitioned from one status to another.")
    private String lastTransitionTime;
    @JsonPropertyDescription("If Status=True, Message records the return result of Probe. If Status=False, Message records Probe's error message")
    private String message;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getState() {
        return state;
    }

    public void setState(String state) {
        this.state = state;
    }

    /** The state as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<ProbeState> stateValue() {
        return ProbeState.fromValue(state);
    }

    public String getLastProbeTime() {
        return lastProbeTime;
    }

    public void setLastProbeTime(String lastProbeTime) {
        this.lastProbeTime = lastProbeTime;
    }

    public String getLastTransitionTime() {
        return lastTransitionTime;
    }

    public void setLastTransitionTime(String lastTransitionTime) {
        this.lastTransitionTime = lastTransitionTime;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ContainerProbeState that)) return false;
        return Objects.equals(name, that.name) && Objects.equals(state, that.state) && Objects.equals(lastProbeTime, that.lastProbeTime) && Objects.equals(lastTransitionTime, that.lastTransitionTime) && Objects.equals(message, that.message)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, state, lastProbeTime, lastTransitionTime, message, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ContainerProbeState{" + "name=" + name + ", " + "state=" + state + ", " + "lastProbeTime=" + lastProbeTime + ", " + "lastTransitionTime=" + lastTransitionTime + ", " + "message=" + message + '}';
    }
}
