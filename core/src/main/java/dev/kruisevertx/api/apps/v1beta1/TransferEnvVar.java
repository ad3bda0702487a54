package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import java.util.List;
import java.util.Objects;

/** Env copied into the sidecar from another container of the pod. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TransferEnvVar extends UnknownFields {
    @JsonPropertyDescription("Name of the container to copy from.")
    private String sourceContainerName;

    @JsonPropertyDescription("Where to read the name of the container to copy from.")
    private SourceContainerNameSource sourceContainerNameFrom;

    @JsonPropertyDescription("One env name to copy.")
    private String envName;

    @JsonPropertyDescription("Env names to copy.")
    private List<String> envNames;

    public String getSourceContainerName() {
        return sourceContainerName;
    }

    public void setSourceContainerName(String sourceContainerName) {
        this.sourceContainerName = sourceContainerName;
    }

    public SourceContainerNameSource getSourceContainerNameFrom() {
        return sourceContainerNameFrom;
    }

    public void setSourceContainerNameFrom(SourceContainerNameSource sourceContainerNameFrom) {
        this.sourceContainerNameFrom = sourceContainerNameFrom;
    }

    public String getEnvName() {
        return envName;
    }

    public void setEnvName(String envName) {
        this.envName = envName;
    }

    public List<String> getEnvNames() {
        return envNames;
    }

    public void setEnvNames(List<String> envNames) {
        this.envNames = envNames;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof TransferEnvVar that)) return false;
        return Objects.equals(sourceContainerName, that.sourceContainerName) && Objects.equals(sourceContainerNameFrom, that.sourceContainerNameFrom) && Objects.equals(envName, that.envName) && Objects.equals(envNames, that.envNames)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sourceContainerName, sourceContainerNameFrom, envName, envNames, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "TransferEnvVar{" + "sourceContainerName=" + sourceContainerName + ", " + "sourceContainerNameFrom=" + sourceContainerNameFrom + ", " + "envName=" + envName + ", " + "envNames=" + envNames + '}';
    }
}
