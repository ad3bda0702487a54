package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestSyncContainerStatus;
import io.fabric8.kubernetes.api.model.Condition;

import java.util.List;
import java.util.Objects;

/**
 * v1alpha1's status plus master's {@code containerStatusSnapshot} (v1alpha1: the annotation
 * {@code crr.apps.kruise.io/sync-container-statuses}) and {@code conditions} (the PreRecreateGrace condition is
 * v1alpha1's annotation {@code crr.apps.kruise.io/unready-acquired}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ContainerRecreateRequestStatus extends dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestStatus {
    @JsonPropertyDescription("ContainerStatusSnapshot contains the current container statuses of the Pod, synchronized "
            + "by the controller during the Recreating phase.")
    private List<ContainerRecreateRequestSyncContainerStatus> containerStatusSnapshot;
    @JsonPropertyDescription("Conditions contains condition entries for this ContainerRecreateRequest.")
    private List<Condition> conditions;

    public List<ContainerRecreateRequestSyncContainerStatus> getContainerStatusSnapshot() {
        return containerStatusSnapshot;
    }

    public void setContainerStatusSnapshot(List<ContainerRecreateRequestSyncContainerStatus> snapshot) {
        this.containerStatusSnapshot = snapshot;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && o instanceof ContainerRecreateRequestStatus that
                && Objects.equals(containerStatusSnapshot, that.containerStatusSnapshot)
                && Objects.equals(conditions, that.conditions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), containerStatusSnapshot, conditions);
    }
}
