package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Probe;
import java.util.List;
import java.util.Objects;

/** One probe of a PodProbeMarker: which container, how, and what the result marks on the pod. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PodContainerProbe extends UnknownFields {
    @Required
    @JsonPropertyDescription("probe name, unique within the Pod(Even between different containers, they cannot be the same)")
    private String name;
    @Required
    @JsonPropertyDescription("container name")
    private String containerName;
    @Required
    @JsonPropertyDescription("container probe spec")
    private Probe probe;
    @JsonPropertyDescription("According to the execution result of ContainerProbe, perform specific actions, such as: patch Pod labels, annotations, ReadinessGate Condition It cannot be null at the same time as PodConditionType.")
    private List<ProbeMarkerPolicy> markerPolicy;
    @JsonPropertyDescription("If it is not empty, the Probe execution result will be recorded on the Pod condition. It cannot be null at the same time as MarkerPolicy. For example PodConditionType=game.kruise.io/healthy, pod.status.condition.type = game.kruise.io/healthy. When probe is Succeeded, pod.status.condition.status = True. Otherwise, when the probe fails to execute, pod.status.condition.status = False.")
    private String podConditionType;

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

    public List<ProbeMarkerPolicy> getMarkerPolicy() {
        return markerPolicy;
    }

    public void setMarkerPolicy(List<ProbeMarkerPolicy> markerPolicy) {
        this.markerPolicy = markerPolicy;
    }

    public String getPodConditionType() {
        return podConditionType;
    }

    public void setPodConditionType(String podConditionType) {
        this.podConditionType = podConditionType;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof PodContainerProbe that)) return false;
        return Objects.equals(name, that.name) && Objects.equals(containerName, that.containerName) && Objects.equals(probe, that.probe) && Objects.equals(markerPolicy, that.markerPolicy) && Objects.equals(podConditionType, that.podConditionType)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, containerName, probe, markerPolicy, podConditionType, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "PodContainerProbe{" + "name=" + name + ", " + "containerName=" + containerName + ", " + "probe=" + probe + ", " + "markerPolicy=" + markerPolicy + ", " + "podConditionType=" + podConditionType + '}';
    }
}
