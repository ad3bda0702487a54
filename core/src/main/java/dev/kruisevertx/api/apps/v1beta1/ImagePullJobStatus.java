package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.List;

/** Observed state of an ImagePullJob: node counts, the failed nodes and a summary message. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ImagePullJobStatus extends UnknownFields {
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Represents time when the job was acknowledged by the job controller.")
    private String startTime;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Represents time when the all the image pull tasks completed.")
    private String completionTime;
    @Required
    @JsonPropertyDescription("The desired number of pulling tasks, this is typically equal to the number of nodes "
            + "satisfied.")
    private int desired;
    @JsonPropertyDescription("The number of actively running pulling tasks.")
    private int active;
    @JsonPropertyDescription("The number of pulling tasks which reached phase Succeeded.")
    private int succeeded;
    @JsonPropertyDescription("The number of pulling tasks  which reached phase Failed.")
    private int failed;
    @JsonPropertyDescription("The text prompt for job running status.")
    private String message;
    @JsonPropertyDescription("The nodes that failed to pull the image.")
    private List<String> failedNodes;

    public String getStartTime() {
        return startTime;
    }

    public void setStartTime(String startTime) {
        this.startTime = startTime;
    }

    public String getCompletionTime() {
        return completionTime;
    }

    public void setCompletionTime(String completionTime) {
        this.completionTime = completionTime;
    }

    public int getDesired() {
        return desired;
    }

    public void setDesired(int desired) {
        this.desired = desired;
    }

    public int getActive() {
        return active;
    }

    public void setActive(int active) {
        this.active = active;
    }

    public int getSucceeded() {
        return succeeded;
    }

    public void setSucceeded(int succeeded) {
        this.succeeded = succeeded;
    }

    public int getFailed() {
        return failed;
    }

    public void setFailed(int failed) {
        this.failed = failed;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    public List<String> getFailedNodes() {
        return failedNodes;
    }

    public void setFailedNodes(List<String> failedNodes) {
        this.failedNodes = failedNodes;
    }
}
