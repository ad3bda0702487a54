package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.List;

/** Observed state of an ImageListPullJob, aggregated over its ImagePullJobs. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ImageListPullJobStatus extends UnknownFields {
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Represents time when the job was acknowledged by the job controller.")
    private String startTime;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Represents time when the all the image pull job was completed.")
    private String completionTime;
    @Required
    @JsonPropertyDescription("The desired number of ImagePullJobs, this is typically equal to the number of "
            + "len(spec.imageList).")
    private int desired;
    @JsonPropertyDescription("The number of running ImagePullJobs which are acknowledged by the imagepulljob "
            + "controller.")
    private int active;
    @JsonPropertyDescription("The number of ImagePullJobs which are finished")
    private int completed;
    @JsonPropertyDescription("The number of image pull job which are finished and status.Succeeded==status.Desired.")
    private int succeeded;
    @JsonPropertyDescription("The status of ImagePullJob which has the failed nodes(status.Failed>0) .")
    private List<FailedImageStatus> failedImageStatuses;

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

    public int getCompleted() {
        return completed;
    }

    public void setCompleted(int completed) {
        this.completed = completed;
    }

    public int getSucceeded() {
        return succeeded;
    }

    public void setSucceeded(int succeeded) {
        this.succeeded = succeeded;
    }

    public List<FailedImageStatus> getFailedImageStatuses() {
        return failedImageStatuses;
    }

    public void setFailedImageStatuses(List<FailedImageStatus> failedImageStatuses) {
        this.failedImageStatuses = failedImageStatuses;
    }
}
