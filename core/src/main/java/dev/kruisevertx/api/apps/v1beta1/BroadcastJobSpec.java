package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

/** Desired state of a BroadcastJob: one pod from {@code template} on every node it fits. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class BroadcastJobSpec extends UnknownFields {
    @JsonPropertyDescription("Parallelism specifies the maximum desired number of pods the job should run at any "
            + "given time. The actual number of pods running in steady state will be less than this number when the "
            + "work left to do is less than max parallelism. Not setting this value means no limit.")
    private IntOrString parallelism;
    @Required
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    @JsonPropertyDescription("Template describes the pod that will be created when executing a job.")
    private PodTemplateSpec template;
    @JsonPropertyDescription("CompletionPolicy indicates the completion policy of the job. Default is Always "
            + "CompletionPolicyType.")
    private CompletionPolicy completionPolicy;
    @JsonPropertyDescription("Paused will pause the job.")
    private Boolean paused;
    @JsonPropertyDescription("FailurePolicy indicates the behavior of the job, when failed pod is found.")
    private FailurePolicy failurePolicy;

    public IntOrString getParallelism() {
        return parallelism;
    }

    public void setParallelism(IntOrString parallelism) {
        this.parallelism = parallelism;
    }

    public PodTemplateSpec getTemplate() {
        return template;
    }

    public void setTemplate(PodTemplateSpec template) {
        this.template = template;
    }

    public CompletionPolicy getCompletionPolicy() {
        return completionPolicy;
    }

    public void setCompletionPolicy(CompletionPolicy completionPolicy) {
        this.completionPolicy = completionPolicy;
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

    public FailurePolicy getFailurePolicy() {
        return failurePolicy;
    }

    public void setFailurePolicy(FailurePolicy failurePolicy) {
        this.failurePolicy = failurePolicy;
    }

    /** The completion policy, never null. */
    public CompletionPolicy completionPolicy() {
        return completionPolicy == null ? new CompletionPolicy() : completionPolicy;
    }

    /** The failure policy, never null. */
    public FailurePolicy failurePolicy() {
        return failurePolicy == null ? new FailurePolicy() : failurePolicy;
    }
}
