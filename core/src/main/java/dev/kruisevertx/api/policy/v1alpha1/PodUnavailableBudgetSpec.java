package dev.kruisevertx.api.policy.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;

/** Which pods a budget protects (selector xor targetRef) and how many may be unavailable (maxUnavailable xor minAvailable). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PodUnavailableBudgetSpec extends UnknownFields {
    @JsonPropertyDescription("Selector label query over pods managed by the budget")
    private LabelSelector selector;
    @JsonProperty("targetRef")
    @JsonPropertyDescription("TargetReference contains enough information to let you identify an workload for "
            + "PodUnavailableBudget Selector and TargetReference are mutually exclusive, TargetReference is priority "
            + "to take effect")
    private TargetReference targetRef;
    @JsonPropertyDescription("Delete pod, evict pod or update pod specification is allowed if at most "
            + "\"maxUnavailable\" pods selected by \"selector\" or \"targetRef\" are unavailable after the above "
            + "operation for pod. MaxUnavailable and MinAvailable are mutually exclusive, MaxUnavailable is priority "
            + "to take effect")
    private IntOrString maxUnavailable;
    @JsonPropertyDescription("Delete pod, evict pod or update pod specification is allowed if at least "
            + "\"minAvailable\" pods selected by \"selector\" or \"targetRef\" will still be available after the "
            + "above operation for pod.")
    private IntOrString minAvailable;

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
}
