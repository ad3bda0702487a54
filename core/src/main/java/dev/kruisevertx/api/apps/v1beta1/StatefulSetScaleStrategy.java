package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.Objects;

/** How a StatefulSet scales up. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class StatefulSetScaleStrategy extends UnknownFields {
    @JsonPropertyDescription("Most pods (or percentage of replicas) unavailable while scaling up; only with Parallel.")
    private IntOrString maxUnavailable;

    public IntOrString getMaxUnavailable() {
        return maxUnavailable;
    }

    public void setMaxUnavailable(IntOrString maxUnavailable) {
        this.maxUnavailable = maxUnavailable;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof StatefulSetScaleStrategy that)) return false;
        return Objects.equals(maxUnavailable, that.maxUnavailable)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxUnavailable, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "StatefulSetScaleStrategy{" + "maxUnavailable=" + maxUnavailable + '}';
    }
}
