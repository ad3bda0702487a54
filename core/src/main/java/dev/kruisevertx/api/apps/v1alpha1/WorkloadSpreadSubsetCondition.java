package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.Objects;

/** One observation about a WorkloadSpread subset; the only type OpenKruise writes is {@value #SCHEDULABLE}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class WorkloadSpreadSubsetCondition extends UnknownFields {
    /** False while a pod of the subset could not be scheduled (Adaptive strategy), until it recovers. */
    public static final String SCHEDULABLE = "Schedulable";

    @Required
    @JsonPropertyDescription("Condition type, e.g. Schedulable.")
    private String type;
    @Required
    @JsonPropertyDescription("True, False or Unknown.")
    private String status;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("When the status last changed (RFC 3339).")
    private String lastTransitionTime;
    @JsonPropertyDescription("Machine-readable reason of the last change.")
    private String reason;
    @JsonPropertyDescription("Human-readable detail of the last change.")
    private String message;

    public WorkloadSpreadSubsetCondition() {
    }

    public WorkloadSpreadSubsetCondition(String type, String status, String lastTransitionTime, String reason,
                                         String message) {
        this.type = type;
        this.status = status;
        this.lastTransitionTime = lastTransitionTime;
        this.reason = reason;
        this.message = message;
    }

    public WorkloadSpreadSubsetCondition copy() {
        WorkloadSpreadSubsetCondition c = new WorkloadSpreadSubsetCondition(type, status, lastTransitionTime, reason,
                message);
        getAdditionalProperties().forEach(c::setAdditionalProperty);
        return c;
    }

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

    @Override
    public boolean equals(Object o) {
        return o instanceof WorkloadSpreadSubsetCondition c && Objects.equals(type, c.type)
                && Objects.equals(status, c.status) && Objects.equals(lastTransitionTime, c.lastTransitionTime)
                && Objects.equals(reason, c.reason) && Objects.equals(message, c.message) && unknownFieldsEqual(c);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, status, lastTransitionTime, reason, message);
    }

    @Override
    public String toString() {
        return "{type=" + type + ", status=" + status + ", reason=" + reason + "}";
    }
}
