package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

/** A condition of one subset; OpenKruise defines one type, Schedulable. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UnitedDeploymentSubsetCondition extends UnknownFields {
    public static final String SCHEDULABLE = "Schedulable";

    @Required
    private String type;
    @Required
    private String status;
    @SchemaFormat("date-time")
    private String lastTransitionTime;
    private String reason;
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
    public java.util.Optional<UnitedDeploymentSubsetConditionType> typeValue() {
        return UnitedDeploymentSubsetConditionType.fromValue(type);
    }
}
