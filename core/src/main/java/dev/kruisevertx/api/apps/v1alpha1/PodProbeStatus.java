package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import java.util.List;
import java.util.Objects;

/** The probe results of one pod. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PodProbeStatus extends UnknownFields {
    @Required
    @JsonPropertyDescription("pod name")
    private String name;
    @Required
    @JsonPropertyDescription("pod namespace")
    private String namespace;
    @Required
    @JsonPropertyDescription("pod uid")
    private String uid;
    @JsonPropertyDescription("pod probe result")
    private List<ContainerProbeState> probeStates;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getNamespace() {
        return namespace;
    }

    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }

    public String getUid() {
        return uid;
    }

    public void setUid(String uid) {
        this.uid = uid;
    }

    public List<ContainerProbeState> getProbeStates() {
        return probeStates;
    }

    public void setProbeStates(List<ContainerProbeState> probeStates) {
        this.probeStates = probeStates;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof PodProbeStatus that)) return false;
        return Objects.equals(name, that.name) && Objects.equals(namespace, that.namespace) && Objects.equals(uid, that.uid) && Objects.equals(probeStates, that.probeStates)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, namespace, uid, probeStates, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "PodProbeStatus{" + "name=" + name + ", " + "namespace=" + namespace + ", " + "uid=" + uid + ", " + "probeStates=" + probeStates + '}';
    }
}
