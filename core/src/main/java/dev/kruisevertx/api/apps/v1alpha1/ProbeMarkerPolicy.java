package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Labels and annotations put on a pod while its probe is in one state. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ProbeMarkerPolicy extends UnknownFields {
    @Required
    @JsonPropertyDescription("probe status, True or False For example: State=Succeeded, annotations[controller.kubernetes.io/pod-deletion-cost] = '10'. State=Failed, annotations[controller.kubernetes.io/pod-deletion-cost] = '-10'. In addition, if State=Failed is not defined, Exec execution fails, and the annotations[controller.kubernetes.io/pod-deletion-cost] will be Deleted")
    private String state;
    @JsonPropertyDescription("Patch Labels pod.labels")
    private Map<String, String> labels;
    @JsonPropertyDescription("Patch annotations pod.annotations")
    private Map<String, String> annotations;

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

    public Map<String, String> getLabels() {
        return labels;
    }

    public void setLabels(Map<String, String> labels) {
        this.labels = labels;
    }

    public Map<String, String> getAnnotations() {
        return annotations;
    }

    public void setAnnotations(Map<String, String> annotations) {
        this.annotations = annotations;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ProbeMarkerPolicy that)) return false;
        return Objects.equals(state, that.state) && Objects.equals(labels, that.labels) && Objects.equals(annotations, that.annotations)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(state, labels, annotations, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ProbeMarkerPolicy{" + "state=" + state + ", " + "labels=" + labels + ", " + "annotations=" + annotations + '}';
    }
}
