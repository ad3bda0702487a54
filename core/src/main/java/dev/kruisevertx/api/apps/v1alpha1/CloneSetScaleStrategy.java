package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.List;
import java.util.Objects;

/** How a CloneSet creates and deletes pods when scaling. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class CloneSetScaleStrategy extends UnknownFields {
    @JsonPropertyDescription("Names of pods to delete; names of pods that no longer exist are dropped from the list.")
    private List<String> podsToDelete;
    @JsonPropertyDescription("Scale-up stops while more pods than this (a number or a percentage of replicas) are "
            + "unavailable.")
    private IntOrString maxUnavailable;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("When true, a new pod of an instance gets new PVCs instead of reusing the ones its "
            + "predecessor left.")
    private boolean disablePVCReuse;

    public List<String> getPodsToDelete() {
        return podsToDelete;
    }

    public void setPodsToDelete(List<String> podsToDelete) {
        this.podsToDelete = podsToDelete;
    }

    public IntOrString getMaxUnavailable() {
        return maxUnavailable;
    }

    public void setMaxUnavailable(IntOrString maxUnavailable) {
        this.maxUnavailable = maxUnavailable;
    }

    public boolean isDisablePVCReuse() {
        return disablePVCReuse;
    }

    public void setDisablePVCReuse(boolean disablePVCReuse) {
        this.disablePVCReuse = disablePVCReuse;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof CloneSetScaleStrategy that)) return false;
        return disablePVCReuse == that.disablePVCReuse && Objects.equals(podsToDelete, that.podsToDelete)
                && Objects.equals(maxUnavailable, that.maxUnavailable) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(podsToDelete, maxUnavailable, disablePVCReuse, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "CloneSetScaleStrategy{podsToDelete=" + podsToDelete + ", maxUnavailable=" + maxUnavailable
                + ", disablePVCReuse=" + disablePVCReuse + '}';
    }
}
