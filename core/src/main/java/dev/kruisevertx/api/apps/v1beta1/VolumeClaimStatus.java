package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.Objects;

/** How many replicas' PVCs of one volumeClaimTemplate match it (status.volumeClaims). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class VolumeClaimStatus extends UnknownFields {
    @Required
    @JsonPropertyDescription("Name of the volumeClaimTemplate.")
    private String volumeClaimName;

    @Required
    @JsonPropertyDescription("Replicas whose PVC has the template's storage class and access modes and requests at "
            + "least the template's storage.")
    private int compatibleReplicas;

    @Required
    @JsonPropertyDescription("Compatible replicas whose PVC capacity has reached its requested storage.")
    private int compatibleReadyReplicas;

    public VolumeClaimStatus() {
    }

    public VolumeClaimStatus(String volumeClaimName, int compatibleReplicas, int compatibleReadyReplicas) {
        this.volumeClaimName = volumeClaimName;
        this.compatibleReplicas = compatibleReplicas;
        this.compatibleReadyReplicas = compatibleReadyReplicas;
    }

    public String getVolumeClaimName() {
        return volumeClaimName;
    }

    public void setVolumeClaimName(String volumeClaimName) {
        this.volumeClaimName = volumeClaimName;
    }

    public int getCompatibleReplicas() {
        return compatibleReplicas;
    }

    public void setCompatibleReplicas(int compatibleReplicas) {
        this.compatibleReplicas = compatibleReplicas;
    }

    public int getCompatibleReadyReplicas() {
        return compatibleReadyReplicas;
    }

    public void setCompatibleReadyReplicas(int compatibleReadyReplicas) {
        this.compatibleReadyReplicas = compatibleReadyReplicas;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof VolumeClaimStatus that)) return false;
        return compatibleReplicas == that.compatibleReplicas
                && compatibleReadyReplicas == that.compatibleReadyReplicas
                && Objects.equals(volumeClaimName, that.volumeClaimName)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(volumeClaimName, compatibleReplicas, compatibleReadyReplicas, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "VolumeClaimStatus{" + "volumeClaimName=" + volumeClaimName + ", " + "compatibleReplicas="
                + compatibleReplicas + ", " + "compatibleReadyReplicas=" + compatibleReadyReplicas + '}';
    }
}
