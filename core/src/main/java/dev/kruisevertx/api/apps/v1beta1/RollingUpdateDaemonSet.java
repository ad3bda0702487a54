package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.Objects;
import java.util.Optional;

/** Parameters of a RollingUpdate of an Advanced DaemonSet. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class RollingUpdateDaemonSet extends UnknownFields {
    @JsonPropertyDescription("Standard (default) or InPlaceIfPossible.")
    private String rollingUpdateType;

    @JsonPropertyDescription("Nodes (or percentage of desired nodes) that may be without an available pod during the update; 1 when neither this nor maxSurge is set.")
    private IntOrString maxUnavailable;

    @JsonPropertyDescription("Nodes (or percentage) that may run an extra new pod while the old one still runs; 0 when unset.")
    private IntOrString maxSurge;

    @JsonPropertyDescription("Only pods on nodes matching this label query are updated.")
    private LabelSelector selector;

    @JsonPropertyDescription("Number (or percentage) of pods kept at the old revision; 0 when unset.")
    private IntOrString partition;

    @JsonPropertyDescription("No pod is updated while true (creation and deletion go on).")
    private Boolean paused;

    public String getRollingUpdateType() {
        return rollingUpdateType;
    }

    public void setRollingUpdateType(String rollingUpdateType) {
        this.rollingUpdateType = rollingUpdateType;
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

    public Boolean getPaused() {
        return paused;
    }

    public void setPaused(Boolean paused) {
        this.paused = paused;
    }

    /** The rolling update type as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<RollingUpdateType> rollingUpdateTypeValue() {
        return RollingUpdateType.fromValue(rollingUpdateType);
    }

    /** Whether the rolling update is paused ({@code paused: true}). */
    @JsonIgnore
    public boolean pausedValue() {
        return Boolean.TRUE.equals(paused);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof RollingUpdateDaemonSet that)) return false;
        return Objects.equals(rollingUpdateType, that.rollingUpdateType)
                && Objects.equals(maxUnavailable, that.maxUnavailable)
                && Objects.equals(maxSurge, that.maxSurge)
                && Objects.equals(selector, that.selector)
                && Objects.equals(partition, that.partition)
                && Objects.equals(paused, that.paused)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rollingUpdateType, maxUnavailable, maxSurge, selector, partition, paused, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "RollingUpdateDaemonSet{" + "rollingUpdateType=" + rollingUpdateType + ", " + "maxUnavailable=" + maxUnavailable + ", " + "maxSurge=" + maxSurge + ", " + "selector=" + selector + ", " + "partition=" + partition + ", " + "paused=" + paused + '}';
    }
}
