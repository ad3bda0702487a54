package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import java.util.List;
import java.util.Objects;

/** Desired state of a NodePodProbe: the probes of the pods on one node. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class NodePodProbeSpec extends UnknownFields {
    private List<PodProbe> podProbes;

    public List<PodProbe> getPodProbes() {
        return podProbes;
    }

    public void setPodProbes(List<PodProbe> podProbes) {
        this.podProbes = podProbes;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof NodePodProbeSpec that)) return false;
        return Objects.equals(podProbes, that.podProbes)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(podProbes, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "NodePodProbeSpec{" + "podProbes=" + podProbes + '}';
    }
}
