package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionConditionType;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.List;
import java.util.Optional;

/**
 * One of a ResourceDistribution's six conditions ({@link ResourceDistributionConditionType}): {@code True} with the
 * namespaces it concerns (JSON {@code failedNamespaces}, v1beta1's plural spelling) or {@code False} with reason
 * {@code Succeeded}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ResourceDistributionCondition extends UnknownFields {
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("Type of the condition.")
    private String type;
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("Status of the condition, one of True, False, Unknown.")
    private String status;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Last time the condition transitioned from one status to another.")
    private String lastTransitionTime;
    @JsonPropertyDescription("The reason for the condition's last transition.")
    private String reason;
    @JsonProperty("failedNamespaces")
    @JsonPropertyDescription("The namespaces the condition concerns, when its status is True.")
    private List<String> failedNamespaces;

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    @JsonIgnore
    public Optional<ResourceDistributionConditionType> typeValue() {
        return ResourceDistributionConditionType.fromValue(type);
    }

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public String getLastTransitionTime() {
        return lastTransitionTime;
    }

    public void setLastTransitionTime(String lastTransitionTime) {
        this.lastTransitionTime = lastTransitionTime;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    @JsonProperty("failedNamespaces")
    public List<String> getFailedNamespaces() {
        return failedNamespaces;
    }

    @JsonProperty("failedNamespaces")
    public void setFailedNamespaces(List<String> failedNamespaces) {
        this.failedNamespaces = failedNamespaces;
    }
}
