package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

/** One image of an ImageListPullJob whose ImagePullJob failed on some node. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class FailedImageStatus extends UnknownFields {
    @JsonPropertyDescription("The name of ImagePullJob which has the failed nodes(status.Failed>0) .")
    private String imagePullJob;
    @JsonPropertyDescription("Name of the image")
    private String name;
    @JsonPropertyDescription("The text prompt for job running status.")
    private String message;

    public FailedImageStatus() {
    }

    public FailedImageStatus(String imagePullJob, String name, String message) {
        this.imagePullJob = imagePullJob;
        this.name = name;
        this.message = message;
    }

    public String getImagePullJob() {
        return imagePullJob;
    }

    public void setImagePullJob(String imagePullJob) {
        this.imagePullJob = imagePullJob;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }
}
