package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.List;
import java.util.Objects;

/**
 * How a v1beta1 CloneSet creates and deletes pods when scaling. v1alpha1's {@code disablePVCReuse} is inverted here
 * ({@code enablePVCReuse}, false when unset, as in OpenKruise's master), and v1alpha1's label
 * {@code apps.kruise.io/cloneset-scaling-exclude-preparing-delete} is {@code excludePreparingDelete}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class CloneSetScaleStrategy extends UnknownFields {
    @JsonPropertyDescription("Names of pods to delete; names of pods that no longer exist are dropped from the list.")
    private List<String> podsToDelete;
    @JsonPropertyDescription("Scale-up stops while more pods than this (a number or a percentage of replicas) are "
            + "unavailable.")
    private IntOrString maxUnavailable;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("When true, a new pod of an instance reuses the PVCs its predecessor left; when false "
            + "(the default) it gets new PVCs.")
    private boolean enablePVCReuse;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("When true, pods in PreparingDelete are not counted as replicas when scaling.")
    private boolean excludePreparingDelete;

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

    public boolean isEnablePVCReuse() {
        return enablePVCReuse;
    }

    public void setEnablePVCReuse(boolean enablePVCReuse) {
        this.enablePVCReuse = enablePVCReuse;
    }

    public boolean isExcludePreparingDelete() {
        return excludePreparingDelete;
    }

    public void setExcludePreparingDelete(boolean excludePreparingDelete) {
        this.excludePreparingDelete = excludePreparingDelete;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof CloneSetScaleStrategy that)) return false;
        return enablePVCReuse == that.enablePVCReuse && excludePreparingDelete == that.excludePreparingDelete
                && Objects.equals(podsToDelete, that.podsToDelete) && Objects.equals(maxUnavailable, that.maxUnavailable)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(podsToDelete, maxUnavailable, enablePVCReuse, excludePreparingDelete, unknownFieldsHash());
    }
}
