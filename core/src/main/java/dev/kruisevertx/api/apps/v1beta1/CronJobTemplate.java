package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;

/**
 * What an AdvancedCronJob creates per run: exactly one of a batch/v1 Job, a BroadcastJob or an ImageListPullJob.
 * The ImageListPullJob template is kept as JSON (it is validated, but no ImageListPullJob is created until that kind
 * is served).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class CronJobTemplate extends UnknownFields {
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    @JsonPropertyDescription("Specifies the job that will be created when executing a CronJob.")
    private JobTemplateSpec jobTemplate;
    @JsonPropertyDescription("Specifies the broadcastjob that will be created when executing a BroadcastCronJob.")
    private BroadcastJobTemplateSpec broadcastJobTemplate;
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    @JsonPropertyDescription("Specifies the imagelistpulljob that will be created when executing a "
            + "CronImageListPullJob.")
    private JsonNode imageListPullJobTemplate;

    public JobTemplateSpec getJobTemplate() {
        return jobTemplate;
    }

    public void setJobTemplate(JobTemplateSpec jobTemplate) {
        this.jobTemplate = jobTemplate;
    }

    public BroadcastJobTemplateSpec getBroadcastJobTemplate() {
        return broadcastJobTemplate;
    }

    public void setBroadcastJobTemplate(BroadcastJobTemplateSpec broadcastJobTemplate) {
        this.broadcastJobTemplate = broadcastJobTemplate;
    }

    public JsonNode getImageListPullJobTemplate() {
        return imageListPullJobTemplate;
    }

    public void setImageListPullJobTemplate(JsonNode imageListPullJobTemplate) {
        this.imageListPullJobTemplate = imageListPullJobTemplate;
    }

    /** The kind of child, as OpenKruise's FindTemplateKind: Job, else ImageListPullJob, else BroadcastJob. */
    @JsonIgnore
    public TemplateKind kind() {
        if (jobTemplate != null) {
            return TemplateKind.JOB;
        }
        if (imageListPullJobTemplate != null && !imageListPullJobTemplate.isNull()) {
            return TemplateKind.IMAGE_LIST_PULL_JOB;
        }
        return TemplateKind.BROADCAST_JOB;
    }
}
