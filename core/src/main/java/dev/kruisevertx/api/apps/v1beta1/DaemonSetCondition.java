package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

/** One observation about a DaemonSet. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class DaemonSetCondition extends UnknownFields {
    @Required
    @JsonPropertyDescription("Condition type.")
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
        if (this == o) return true;
        if (!(o instanceof DaemonSetCondition that)) return false;
        return Objects.equals(type, that.type)
                && Objects.equals(status, that.status)
                && Objects.equals(lastTransitionTime, that.lastTransitionTime)
                && Objects.equals(reason, that.reason)
                && Objects.equals(message, that.message)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, status, lastTransitionTime, reason, message, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "DaemonSetCondition{" + "type=" + type + ", " + "status=" + status + ", " + "lastTransitionTime=" + lastTransitionTime + ", " + "reason=" + reason + ", " + "message=" + message + '}';
    }
}
