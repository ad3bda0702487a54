package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import java.util.List;
import java.util.Objects;

/** Observed state of a NodePodProbe: the probe results the node agent reports. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class NodePodProbeStatus extends UnknownFields {
    @JsonPropertyDescription("pod probe results")
    private List<PodProbeStatus> podProbeStatuses;

    public List<PodProbeStatus> getPodProbeStatuses() {
        return podProbeStatuses;
    }

    public void setPodProbeStatuses(List<PodProbeStatus> podProbeStatuses) {
        this.podProbeStatuses = podProbeStatuses;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof NodePodProbeStatus that)) return false;
        return Objects.equals(podProbeStatuses, that.podProbeStatuses)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(podProbeStatuses, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "NodePodProbeStatus{" + "podProbeStatuses=" + podProbeStatuses + '}';
    }
}
