package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;
import dev.kruisevertx.api.common.UpdateScatterTerm;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Rolling-update knobs of a v1beta1 CloneSet: v1alpha1's flat update fields plus {@code podUpdatePolicy}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class RollingUpdateCloneSetStrategy extends UnknownFields {
    @JsonPropertyDescription("Number (or percentage of replicas) of pods to keep at old revisions.")
    private IntOrString partition;
    @JsonPropertyDescription("Most pods (a number or a percentage of replicas) that may be unavailable during an "
            + "update.")
    private IntOrString maxUnavailable;
    @JsonPropertyDescription("Most pods (a number or a percentage of replicas) created above replicas during an "
            + "update.")
    private IntOrString maxSurge;
    @JsonPropertyDescription("ReCreate (default), InPlaceIfPossible or InPlaceOnly.")
    private String podUpdatePolicy;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Stops updating pods while true.")
    private boolean paused;
    @JsonPropertyDescription("Which pods are updated first.")
    private UpdatePriorityStrategy priorityStrategy;
    @JsonPropertyDescription("Label key/value pairs whose pods are spread over the update order.")
    private List<UpdateScatterTerm> scatterStrategy;
    @JsonPropertyDescription("Knobs of in-place updates and image pre-download.")
    private CloneSetInPlaceUpdateStrategy inPlaceUpdateStrategy;

    public IntOrString getPartition() {
        return partition;
    }

    public void setPartition(IntOrString partition) {
        this.partition = partition;
    }

    public IntOrString getMaxUnavailable() {
        return maxUnavailable;
    }

    public void setMaxUnavailable(IntOrString maxUnavailable) {
        this.maxUnavailable = maxUnavailable;
    }

    public IntOrString getMaxSurge() {
        return maxSurge;
    }

    public void setMaxSurge(IntOrString maxSurge) {
        this.maxSurge = maxSurge;
    }

    public String getPodUpdatePolicy() {
        return podUpdatePolicy;
    }

    public void setPodUpdatePolicy(String podUpdatePolicy) {
        this.podUpdatePolicy = podUpdatePolicy;
    }

    /** The parsed policy; empty when unset or unknown. */
    @JsonIgnore
    public Optional<PodUpdateStrategyType> podUpdatePolicyValue() {
        return PodUpdateStrategyType.fromValue(podUpdatePolicy);
    }

    public boolean isPaused() {
        return paused;
    }

    public void setPaused(boolean paused) {
        this.paused = paused;
    }

    public UpdatePriorityStrategy getPriorityStrategy() {
        return priorityStrategy;
    }

    public void setPriorityStrategy(UpdatePriorityStrategy priorityStrategy) {
        this.priorityStrategy = priorityStrategy;
    }

    public List<UpdateScatterTerm> getScatterStrategy() {
        return scatterStrategy;
    }

    public void setScatterStrategy(List<UpdateScatterTerm> scatterStrategy) {
        this.scatterStrategy = scatterStrategy;
    }

    public CloneSetInPlaceUpdateStrategy getInPlaceUpdateStrategy() {
        return inPlaceUpdateStrategy;
    }

    public void setInPlaceUpdateStrategy(CloneSetInPlaceUpdateStrategy inPlaceUpdateStrategy) {
        this.inPlaceUpdateStrategy = inPlaceUpdateStrategy;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof RollingUpdateCloneSetStrategy that)) return false;
        return paused == that.paused && Objects.equals(partition, that.partition)
                && Objects.equals(maxUnavailable, that.maxUnavailable) && Objects.equals(maxSurge, that.maxSurge)
                && Objects.equals(podUpdatePolicy, that.podUpdatePolicy)
                && Objects.equals(priorityStrategy, that.priorityStrategy)
                && Objects.equals(scatterStrategy, that.scatterStrategy)
                && Objects.equals(inPlaceUpdateStrategy, that.inPlaceUpdateStrategy) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partition, maxUnavailable, maxSurge, podUpdatePolicy, paused, priorityStrategy,
                scatterStrategy, inPlaceUpdateStrategy, unknownFieldsHash());
    }
}
