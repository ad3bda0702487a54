package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.Optional;

/** How the pull of one tag went on a node. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ImageTagStatus extends UnknownFields {
    @Required
    @JsonPropertyDescription("Represents the image tag.")
    private String tag;
    @Required
    @JsonPropertyDescription("The phase of the pulling task on this node.")
    private String phase;
    @JsonPropertyDescription("Represents the pulling progress of this tag, which is beetween 0-100. There is no guarantee of monotonic consistency, and it may be a rollback due to retry during pulling.")
    private Integer progress;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Represents time when the pulling task was acknowledged by the image puller.")
    private String startTime;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Represents time when the pulling task was completed.")
    private String completionTime;
    @JsonPropertyDescription("Represents the internal version of this tag that the daemon handled.")
    private Long version;
    @JsonPropertyDescription("Represents the ID of this image.")
    private String imageID;
    @JsonPropertyDescription("Represents the summary information of this node")
    private String message;

    public String getTag() {
        return tag;
    }

    public void setTag(String tag) {
        this.tag = tag;
    }

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    public Integer getProgress() {
        return progress;
    }

    public void setProgress(Integer progress) {
        this.progress = progress;
    }

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

    public Long getVersion() {
        return version;
    }

    public void setVersion(Long version) {
        this.version = version;
    }

    public String getImageID() {
        return imageID;
    }

    public void setImageID(String imageID) {
        this.imageID = imageID;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    /** The phase as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<ImagePullPhase> phaseValue() {
        return ImagePullPhase.fromValue(phase);
    }

    /** The version, 0 when unset. */
    public long versionOrZero() {
        return version == null ? 0 : version;
    }
}
