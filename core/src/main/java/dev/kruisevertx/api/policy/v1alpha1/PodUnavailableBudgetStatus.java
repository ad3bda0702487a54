package dev.kruisevertx.api.policy.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.Map;

/**
 * Observed state of a budget. The counts are always written (OpenKruise's have no omitempty); the record maps hold
 * pod name to the RFC 3339 time the webhook admitted the disruption (DELETE/EVICT) or unavailable update.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PodUnavailableBudgetStatus extends UnknownFields {
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("Most recent generation observed when updating this PUB status. UnavailableAllowed and "
            + "other status information is valid only if observedGeneration equals to PUB's object generation.")
    private long observedGeneration;
    @JsonPropertyDescription("DisruptedPods contains information about pods whose eviction or deletion was processed "
            + "by the API handler but has not yet been observed by the PodUnavailableBudget.")
    @SchemaFormat("date-time")
    private Map<String, String> disruptedPods;
    @JsonPropertyDescription("UnavailablePods contains information about pods whose specification changed(inplace-update "
            + "pod), once pod is available(consistent and ready) again, it will be removed from the list.")
    @SchemaFormat("date-time")
    private Map<String, String> unavailablePods;
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("UnavailableAllowed number of pod unavailable that are currently allowed")
    private int unavailableAllowed;
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("CurrentAvailable current number of available pods")
    private int currentAvailable;
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("DesiredAvailable minimum desired number of available pods")
    private int desiredAvailable;
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("TotalReplicas total number of pods counted by this unavailable budget")
    private int totalReplicas;

    public long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public Map<String, String> getDisruptedPods() {
        return disruptedPods;
    }

    public void setDisruptedPods(Map<String, String> disruptedPods) {
        this.disruptedPods = disruptedPods;
    }

    public Map<String, String> getUnavailablePods() {
        return unavailablePods;
    }

    public void setUnavailablePods(Map<String, String> unavailablePods) {
        this.unavailablePods = unavailablePods;
    }

    public int getUnavailableAllowed() {
        return unavailableAllowed;
    }

    public void setUnavailableAllowed(int unavailableAllowed) {
        this.unavailableAllowed = unavailableAllowed;
    }

    public int getCurrentAvailable() {
        return currentAvailable;
    }

    public void setCurrentAvailable(int currentAvailable) {
        this.currentAvailable = currentAvailable;
    }

    public int getDesiredAvailable() {
        return desiredAvailable;
    }

    public void setDesiredAvailable(int desiredAvailable) {
        this.desiredAvailable = desiredAvailable;
    }

    public int getTotalReplicas() {
        return totalReplicas;
    }

    public void setTotalReplicas(int totalReplicas) {
        this.totalReplicas = totalReplicas;
    }
}
