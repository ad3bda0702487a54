package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Objects;

/** One running container as kruise-daemon sees it in the container runtime. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class RuntimeContainerMeta extends UnknownFields {
    private String name;
    private String containerID;
    private int restartCount;
    private RuntimeContainerHashes hashes;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
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

    public RuntimeContainerHashes getHashes() {
        return hashes;
    }

    public void setHashes(RuntimeContainerHashes hashes) {
        this.hashes = hashes;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof RuntimeContainerMeta that)) return false;
        return restartCount == that.restartCount && Objects.equals(name, that.name)
                && Objects.equals(containerID, that.containerID) && Objects.equals(hashes, that.hashes)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, containerID, restartCount, hashes, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "RuntimeContainerMeta{name=" + name + ", containerID=" + containerID + ", restartCount=" + restartCount
                + ", hashes=" + hashes + '}';
    }
}
