package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Probe;
import java.util.Objects;

/** One probe run in one container of a pod; its name is {@code <podProbeMarker>#<probe>}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ContainerProbe extends UnknownFields {
    @Required
    @JsonPropertyDescription("Name is podProbeMarker.Name#probe.Name")
    private String name;
    @Required
    @JsonPropertyDescription("container name")
    private String containerName;
    @Required
    @JsonPropertyDescription("container probe spec")
    private Probe probe;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getContainerName() {
        return containerName;
    }

    public void setContainerName(String containerName) {
        this.containerName = containerName;
    }

    public Probe getProbe() {
        return probe;
    }

    public void setProbe(Probe probe) {
        this.probe = probe;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ContainerProbe that)) return false;
        return Objects.equals(name, that.name) && Objects.equals(containerName, that.containerName) && Objects.equals(probe, that.probe)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, containerName, probe, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ContainerProbe{" + "name=" + name + ", " + "containerName=" + containerName + ", " + "probe=" + probe + '}';
    }
}
