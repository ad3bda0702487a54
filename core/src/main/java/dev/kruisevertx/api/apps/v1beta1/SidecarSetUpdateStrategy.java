package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;
import dev.kruisevertx.api.common.UpdateScatterTerm;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** How the sidecars of existing pods are upgraded. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SidecarSetUpdateStrategy extends UnknownFields {
    @JsonPropertyDescription("RollingUpdate (default) or NotUpdate.")
    private String type;

    @JsonPropertyDescription("No upgrades while true.")
    private Boolean paused;

    @JsonPropertyDescription("Only pods matching it are upgraded.")
    private LabelSelector selector;

    @SchemaFrom(type = IntOrString.class)
    @JsonPropertyDescription("Number or percent of matched pods kept at the old revision.")
    private IntOrString partition;

    @SchemaFrom(type = IntOrString.class)
    @JsonPropertyDescription("Most pods unavailable during the upgrade (number or percent; default 1).")
    private IntOrString maxUnavailable;

    @JsonPropertyDescription("Order of upgrade by pod labels.")
    private UpdatePriorityStrategy priorityStrategy;

    @JsonPropertyDescription("Spreads pods with the given labels over the upgrade.")
    private List<UpdateScatterTerm> scatterStrategy;

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    /** {@code type} as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<SidecarSetUpdateStrategyType> typeValue() {
        return SidecarSetUpdateStrategyType.fromValue(type);
    }

    public Boolean getPaused() {
        return paused;
    }

    public void setPaused(Boolean paused) {
        this.paused = paused;
    }

    public LabelSelector getSelector() {
        return selector;
    }

    public void setSelector(LabelSelector selector) {
        this.selector = selector;
    }

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

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof SidecarSetUpdateStrategy that)) return false;
        return Objects.equals(type, that.type) && Objects.equals(paused, that.paused) && Objects.equals(selector, that.selector) && Objects.equals(partition, that.partition) && Objects.equals(maxUnavailable, that.maxUnavailable) && Objects.equals(priorityStrategy, that.priorityStrategy) && Objects.equals(scatterStrategy, that.scatterStrategy)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, paused, selector, partition, maxUnavailable, priorityStrategy, scatterStrategy, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "SidecarSetUpdateStrategy{" + "type=" + type + ", " + "paused=" + paused + ", " + "selector=" + selector + ", " + "partition=" + partition + ", " + "maxUnavailable=" + maxUnavailable + ", " + "priorityStrategy=" + priorityStrategy + ", " + "scatterStrategy=" + scatterStrategy + '}';
    }
}
