package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;
import java.util.Objects;

/** Desired state of a PodProbeMarker: the pods it selects and the probes run in them. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PodProbeMarkerSpec extends UnknownFields {
    @Required
    @JsonPropertyDescription("Selector is a label query over pods that should exec custom probe It must match the pod template's labels.")
    private LabelSelector selector;
    @Required
    @JsonPropertyDescription("Custom container probe, current only support Exec(). Probe Result will record in Pod.Status.Conditions, and condition.type=probe.name. condition.status=True indicates probe success condition.status=False indicates probe fails")
    private List<PodContainerProbe> probes;

    public LabelSelector getSelector() {
        return selector;
    }

    public void setSelector(LabelSelector selector) {
        this.selector = selector;
    }

    public List<PodContainerProbe> getProbes() {
        return probes;
    }

    public void setProbes(List<PodContainerProbe> probes) {
        this.probes = probes;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof PodProbeMarkerSpec that)) return false;
        return Objects.equals(selector, that.selector) && Objects.equals(probes, that.probes)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(selector, probes, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "PodProbeMarkerSpec{" + "selector=" + selector + ", " + "probes=" + probes + '}';
    }
}
