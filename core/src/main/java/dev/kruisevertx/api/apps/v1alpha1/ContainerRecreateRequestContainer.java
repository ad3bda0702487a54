package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.ContainerPort;

import java.util.List;
import java.util.Objects;

/** One container to recreate. Everything but the name is filled in by the webhook from the pod. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ContainerRecreateRequestContainer extends UnknownFields {
    @Required
    @JsonPropertyDescription("Name of the container that need to recreate. It must be existing in the real "
            + "pod.Spec.Containers.")
    private String name;
    @JsonPropertyDescription("PreStop is synced from the real container in Pod spec during this "
            + "ContainerRecreateRequest creating. Populated by the system. Read-only.")
    private ProbeHandler preStop;
    @JsonPropertyDescription("Ports is synced from the real container in Pod spec during this "
            + "ContainerRecreateRequest creating. Populated by the system. Read-only.")
    private List<ContainerPort> ports;
    @JsonPropertyDescription("StatusContext is synced from the real container status during this "
            + "ContainerRecreateRequest creating. Populated by the kruise daemon.")
    private ContainerRecreateRequestContainerContext statusContext;

    public ContainerRecreateRequestContainer() {
    }

    public ContainerRecreateRequestContainer(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public ProbeHandler getPreStop() {
        return preStop;
    }

    public void setPreStop(ProbeHandler preStop) {
        this.preStop = preStop;
    }

    public List<ContainerPort> getPorts() {
        return ports;
    }

    public void setPorts(List<ContainerPort> ports) {
        this.ports = ports;
    }

    public ContainerRecreateRequestContainerContext getStatusContext() {
        return statusContext;
    }

    public void setStatusContext(ContainerRecreateRequestContainerContext statusContext) {
        this.statusContext = statusContext;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ContainerRecreateRequestContainer that)) return false;
        return Objects.equals(name, that.name) && Objects.equals(preStop, that.preStop)
                && Objects.equals(ports, that.ports) && Objects.equals(statusContext, that.statusContext)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, preStop, ports, statusContext, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ContainerRecreateRequestContainer{name=" + name + ", preStop=" + preStop + ", ports=" + ports
                + ", statusContext=" + statusContext + '}';
    }
}
