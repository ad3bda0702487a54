package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import java.util.Objects;

/** How an Advanced DaemonSet creates pods on nodes that need one. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class DaemonSetScaleStrategy extends UnknownFields {
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Create pods only within the rolling update partition (progressive create); false when unset.")
    private boolean partitionedScaling;

    public boolean isPartitionedScaling() {
        return partitionedScaling;
    }

    public void setPartitionedScaling(boolean partitionedScaling) {
        this.partitionedScaling = partitionedScaling;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof DaemonSetScaleStrategy that)) return false;
        return partitionedScaling == that.partitionedScaling
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partitionedScaling, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "DaemonSetScaleStrategy{" + "partitionedScaling=" + partitionedScaling + '}';
    }
}
