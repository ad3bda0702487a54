package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.UnknownFields;

/** One observation of a UnitedDeployment's state (SubsetProvisioned, SubsetUpdated, SubsetFailure, UnitedDeploymentUpdated). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UnitedDeploymentCondition extends UnknownFields {
    public static final String SUBSET_PROVISIONED = "SubsetProvisioned";
    public static final String SUBSET_UPDATED = "SubsetUpdated";
    public static final String SUBSET_FAILURE = "SubsetFailure";
    public static final String UNITED_DEPLOYMENT_UPDATED = "UnitedDeploymentUpdated";

    @JsonPropertyDescription("Type of the condition.")
    private String type;
    @JsonPropertyDescription("Status of the condition, one of True, False, Unknown.")
    private String status;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Last time the condition transitioned from one status to another.")
    private String lastTransitionTime;
    @JsonPropertyDescription("The reason for the condition's last transition.")
    private String reason;
    @JsonPropertyDescription("A human-readable message indicating details about the transition.")
    private String message;

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
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

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    /** The type as an enum; empty when unset or unknown. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public java.util.Optional<UnitedDeploymentConditionType> typeValue() {
        return UnitedDeploymentConditionType.fromValue(type);
    }
}
