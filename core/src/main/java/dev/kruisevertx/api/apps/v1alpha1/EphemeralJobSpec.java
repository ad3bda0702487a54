package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LabelSelector;

/** Desired state of an EphemeralJob, with OpenKruise v1.9.0's field names. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class EphemeralJobSpec extends UnknownFields {
    @Required
    @JsonPropertyDescription("Selector is a label query over pods that should match the pod labels.")
    private LabelSelector selector;
    @JsonPropertyDescription("Replicas indicates a part of the quantity from matched pods by selector. Usually it is "
            + "used for gray scale working. if Replicas exceeded the matched number by selector or not be set, "
            + "replicas will not work.")
    private Integer replicas;
    @JsonPropertyDescription("Parallelism specifies the maximum desired number of pods which matches running "
            + "ephemeral containers.")
    private Integer parallelism;
    @Required
    @JsonPropertyDescription("Template describes the ephemeral container that will be created.")
    private EphemeralContainerTemplateSpec template;
    @JsonPropertyDescription("Paused will pause the ephemeral job.")
    private Boolean paused;
    @JsonPropertyDescription("ActiveDeadlineSeconds specifies the duration in seconds relative to the startTime that "
            + "the job may be active before the system tries to terminate it; value must be positive integer.")
    private Long activeDeadlineSeconds;
    @JsonPropertyDescription("ttlSecondsAfterFinished limits the lifetime of a Job that has finished execution "
            + "(either Complete or Failed). If this field is unset, default value is 1800. If this field is set to "
            + "zero, the Job becomes eligible to be deleted immediately after it finishes.")
    private Integer ttlSecondsAfterFinished;

    public LabelSelector getSelector() {
        return selector;
    }

    public void setSelector(LabelSelector selector) {
        this.selector = selector;
    }

    public Integer getReplicas() {
        return replicas;
    }

    public void setReplicas(Integer replicas) {
        this.replicas = replicas;
    }

    public Integer getParallelism() {
        return parallelism;
    }

    public void setParallelism(Integer parallelism) {
        this.parallelism = parallelism;
    }

    public EphemeralContainerTemplateSpec getTemplate() {
        return template;
    }

    public void setTemplate(EphemeralContainerTemplateSpec template) {
        this.template = template;
    }

    /** The template, never null. */
    public EphemeralContainerTemplateSpec template() {
        return template == null ? new EphemeralContainerTemplateSpec() : template;
    }

    public Boolean getPaused() {
        return paused;
    }

    public void setPaused(Boolean paused) {
        this.paused = paused;
    }

    /** Whether paused (unset is not). Not a bean getter, so it cannot shadow the {@code paused} property. */
    public boolean pausedOrFalse() {
        return Boolean.TRUE.equals(paused);
    }

    public Long getActiveDeadlineSeconds() {
        return activeDeadlineSeconds;
    }

    public void setActiveDeadlineSeconds(Long activeDeadlineSeconds) {
        this.activeDeadlineSeconds = activeDeadlineSeconds;
    }

    public Integer getTtlSecondsAfterFinished() {
        return ttlSecondsAfterFinished;
    }

    public void setTtlSecondsAfterFinished(Integer ttlSecondsAfterFinished) {
        this.ttlSecondsAfterFinished = ttlSecondsAfterFinished;
    }
}
