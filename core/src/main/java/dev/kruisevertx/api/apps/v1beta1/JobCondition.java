package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import dev.kruisevertx.api.common.SchemaFormat;
import io.fabric8.generator.annotation.Required;

import java.util.Optional;

/** One condition of a BroadcastJob (Complete or Failed), as OpenKruise's {@code JobCondition}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class JobCondition extends UnknownFields {
    @Required
    @JsonPropertyDescription("Type of job condition, Complete or Failed.")
    private String type;
    @Required
    @JsonPropertyDescription("Status of the condition, one of True, False, Unknown.")
    private String status;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Last time the condition was checked.")
    private String lastProbeTime;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Last time the condition transit from one status to another.")
    private String lastTransitionTime;
    @JsonPropertyDescription("(brief) reason for the condition's last transition.")
    private String reason;
    @JsonPropertyDescription("Human readable message indicating details about last transition.")
    private String message;

    public JobCondition() {
    }

    public JobCondition(String type, String status, String now, String reason, String message) {
        this.type = type;
        this.status = status;
        this.lastProbeTime = now;
        this.lastTransitionTime = now;
        this.reason = reason;
        this.message = message;
    }

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    @JsonIgnore
    public Optional<JobConditionType> typeValue() {
        return JobConditionType.fromValue(type);
    }

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public String getLastProbeTime() {
        return lastProbeTime;
    }

    public void setLastProbeTime(String lastProbeTime) {
        this.lastProbeTime = lastProbeTime;
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
}
