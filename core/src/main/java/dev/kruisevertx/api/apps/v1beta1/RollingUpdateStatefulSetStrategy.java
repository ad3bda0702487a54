package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.InPlaceUpdateStrategy;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.Objects;
import java.util.Optional;

/** Parameters of a RollingUpdate of a StatefulSet. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class RollingUpdateStatefulSetStrategy extends UnknownFields {
    @JsonPropertyDescription("Ordinals below this stay at the current revision; 0 when unset.")
    private Integer partition;

    @JsonPropertyDescription("Pods (or percentage of replicas) that may be unavailable during the update; 1 when unset.")
    private IntOrString maxUnavailable;

    @JsonPropertyDescription("ReCreate (default), InPlaceIfPossible or InPlaceOnly.")
    private String podUpdatePolicy;

    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("No pod is updated while true.")
    private boolean paused;

    @JsonPropertyDescription("Update order by priority instead of ordinal; only with Parallel.")
    private UnorderedUpdateStrategy unorderedUpdate;

    @JsonPropertyDescription("Parameters of in-place update.")
    private InPlaceUpdateStrategy inPlaceUpdateStrategy;

    @JsonPropertyDescription("Seconds an updated pod must be ready before the update moves on; 0 when unset.")
    private Integer minReadySeconds;

    public Integer getPartition() {
        return partition;
    }

    public void setPartition(Integer partition) {
        this.partition = partition;
    }

    public IntOrString getMaxUnavailable() {
        return maxUnavailable;
    }

    public void setMaxUnavailable(IntOrString maxUnavailable) {
        this.maxUnavailable = maxUnavailable;
    }

    public String getPodUpdatePolicy() {
        return podUpdatePolicy;
    }

    public void setPodUpdatePolicy(String podUpdatePolicy) {
        this.podUpdatePolicy = podUpdatePolicy;
    }

    /** The policy as an enum; empty when unset or unknown. */
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

    public UnorderedUpdateStrategy getUnorderedUpdate() {
        return unorderedUpdate;
    }

    public void setUnorderedUpdate(UnorderedUpdateStrategy unorderedUpdate) {
        this.unorderedUpdate = unorderedUpdate;
    }

    public InPlaceUpdateStrategy getInPlaceUpdateStrategy() {
        return inPlaceUpdateStrategy;
    }

    public void setInPlaceUpdateStrategy(InPlaceUpdateStrategy inPlaceUpdateStrategy) {
        this.inPlaceUpdateStrategy = inPlaceUpdateStrategy;
    }

    public Integer getMinReadySeconds() {
        return minReadySeconds;
    }

    public void setMinReadySeconds(Integer minReadySeconds) {
        this.minReadySeconds = minReadySeconds;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof RollingUpdateStatefulSetStrategy that)) return false;
        return Objects.equals(partition, that.partition)
                && Objects.equals(maxUnavailable, that.maxUnavailable)
                && Objects.equals(podUpdatePolicy, that.podUpdatePolicy)
                && paused == that.paused
                && Objects.equals(unorderedUpdate, that.unorderedUpdate)
                && Objects.equals(inPlaceUpdateStrategy, that.inPlaceUpdateStrategy)
                && Objects.equals(minReadySeconds, that.minReadySeconds)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partition, maxUnavailable, podUpdatePolicy, paused, unorderedUpdate, inPlaceUpdateStrategy, minReadySeconds, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "RollingUpdateStatefulSetStrategy{" + "partition=" + partition + ", " + "maxUnavailable=" + maxUnavailable + ", " + "podUpdatePolicy=" + podUpdatePolicy + ", " + "paused=" + paused + ", " + "unorderedUpdate=" + unorderedUpdate + ", " + "inPlaceUpdateStrategy=" + inPlaceUpdateStrategy + ", " + "minReadySeconds=" + minReadySeconds + '}';
    }
}
