package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.List;

/** How far a v1beta1 ResourceDistribution got: target namespaces, copies in sync, failures, and six conditions. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ResourceDistributionStatus extends UnknownFields {
    @JsonPropertyDescription("The number of target namespaces.")
    private Integer desired;
    @JsonPropertyDescription("The number of target namespaces holding an up-to-date copy.")
    private Integer succeeded;
    @JsonPropertyDescription("desired - succeeded.")
    private Integer failed;
    @JsonPropertyDescription("The generation the status was computed for.")
    private Long observedGeneration;
    @JsonPropertyDescription("One condition per failure kind, with the namespaces it happened in.")
    private List<ResourceDistributionCondition> conditions;

    public Integer getDesired() {
        return desired;
    }

    public void setDesired(Integer desired) {
        this.desired = desired;
    }

    public Integer getSucceeded() {
        return succeeded;
    }

    public void setSucceeded(Integer succeeded) {
        this.succeeded = succeeded;
    }

    public Integer getFailed() {
        return failed;
    }

    public void setFailed(Integer failed) {
        this.failed = failed;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public List<ResourceDistributionCondition> getConditions() {
        return conditions;
    }

    public void setConditions(List<ResourceDistributionCondition> conditions) {
        this.conditions = conditions;
    }
}
