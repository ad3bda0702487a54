package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.Objects;

/** The container as it was when the request was made: the agent compares against it to see a new container. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ContainerRecreateRequestContainerContext extends UnknownFields {
    @Required
    @JsonProperty("containerID")
    @JsonPropertyDescription("Container's ID in the format 'docker://<container_id>'.")
    private String containerID;
    @Required
    @JsonPropertyDescription("The number of times the container has been restarted.")
    private int restartCount;

    public ContainerRecreateRequestContainerContext() {
    }

    public ContainerRecreateRequestContainerContext(String containerID, int restartCount) {
        this.containerID = containerID;
        this.restartCount = restartCount;
    }

    public String getContainerID() {
        return containerID;
    }

    public void setContainerID(String containerID) {
        this.containerID = containerID;
    }

    public int getRestartCount() {
        return restartCount;
    }

    public void setRestartCount(int restartCount) {
        this.restartCount = restartCount;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ContainerRecreateRequestContainerContext that)) return false;
        return restartCount == that.restartCount && Objects.equals(containerID, that.containerID)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(containerID, restartCount, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ContainerRecreateRequestContainerContext{containerID=" + containerID + ", restartCount="
                + restartCount + '}';
    }
}
