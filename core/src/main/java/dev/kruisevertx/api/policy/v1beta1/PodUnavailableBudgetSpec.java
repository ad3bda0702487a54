package dev.kruisevertx.api.policy.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import dev.kruisevertx.api.policy.v1alpha1.TargetReference;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;

import java.util.List;

/**
 * The v1alpha1 spec plus master's typed {@code protectOperations} (DELETE, UPDATE, EVICT, RESIZE; empty means
 * DELETE, UPDATE, EVICT), {@code protectTotalReplicas} (at least 1) and {@code ignoredPodSelector}. The operations are
 * kept as strings so a value this project does not know survives a read and a write (the webhook refuses it).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PodUnavailableBudgetSpec extends UnknownFields {
    @JsonPropertyDescription("Selector label query over pods managed by the budget.")
    private LabelSelector selector;
    @JsonProperty("targetRef")
    @JsonPropertyDescription("TargetReference contains enough information to let you identify a workload for "
            + "PodUnavailableBudget. Selector and TargetReference are mutually exclusive, TargetReference is priority "
            + "to take effect.")
    private TargetReference targetRef;
    @JsonPropertyDescription("Delete pod, evict pod or update pod specification is allowed if at most "
            + "\"maxUnavailable\" pods selected by \"selector\" or \"targetRef\" are unavailable after the above "
            + "operation for pod. MaxUnavailable and MinAvailable are mutually exclusive, MaxUnavailable is priority "
            + "to take effect.")
    private IntOrString maxUnavailable;
    @JsonPropertyDescription("Delete pod, evict pod or update pod specification is allowed if at least "
            + "\"minAvailable\" pods selected by \"selector\" or \"targetRef\" will still be available after the "
            + "above operation for pod.")
    private IntOrString minAvailable;
    @JsonPropertyDescription("ProtectOperations declares which voluntary disruption operations are protected by "
            + "this PUB. When empty, DELETE, UPDATE and EVICT are protected by default.")
    private List<String> protectOperations;
    @JsonPropertyDescription("ProtectTotalReplicas overrides the expected workload replicas when pods do not have "
            + "workload management or the workload does not expose the scale subresource.")
    @Min(1)
    private Integer protectTotalReplicas;
    @JsonPropertyDescription("IgnoredPodSelector selects pods that should always bypass PUB protection.")
    private LabelSelector ignoredPodSelector;

    public LabelSelector getSelector() {
        return selector;
    }

    public void setSelector(LabelSelector selector) {
        this.selector = selector;
    }

    public TargetReference getTargetRef() {
        return targetRef;
    }

    public void setTargetRef(TargetReference targetRef) {
        this.targetRef = targetRef;
    }

    public IntOrString getMaxUnavailable() {
        return maxUnavailable;
    }

    public void setMaxUnavailable(IntOrString maxUnavailable) {
        this.maxUnavailable = maxUnavailable;
    }

    public IntOrString getMinAvailable() {
        return minAvailable;
    }

    public void setMinAvailable(IntOrString minAvailable) {
        this.minAvailable = minAvailable;
    }

    public List<String> getProtectOperations() {
        return protectOperations;
    }

    public void setProtectOperations(List<String> protectOperations) {
        this.protectOperations = protectOperations;
    }

    public Integer getProtectTotalReplicas() {
        return protectTotalReplicas;
    }

    public void setProtectTotalReplicas(Integer protectTotalReplicas) {
        this.protectTotalReplicas = protectTotalReplicas;
    }

    public LabelSelector getIgnoredPodSelector() {
        return ignoredPodSelector;
    }

    public void setIgnoredPodSelector(LabelSelector ignoredPodSelector) {
        this.ignoredPodSelector = ignoredPodSelector;
    }
}
