package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.List;
import java.util.Optional;

/** The fields ImagePullJob and ImageListPullJob share (OpenKruise's inline {@code ImagePullJobTemplate}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public abstract class ImagePullJobTemplate extends UnknownFields {
    @JsonPropertyDescription("ImagePullSecrets is an optional list of references to secrets in the same namespace to "
            + "use for pulling the image. If specified, these secrets will be passed to individual puller "
            + "implementations for them to use. For example, in the case of docker, only DockerConfig type secrets "
            + "are honored.")
    private List<String> pullSecrets;
    @JsonPropertyDescription("Selector is a query over nodes that should match the job. nil to match all nodes.")
    private ImagePullJobNodeSelector selector;
    @JsonPropertyDescription("PodSelector is a query over pods that should pull image on nodes of these pods. "
            + "Mutually exclusive with Selector.")
    private ImagePullJobPodSelector podSelector;
    @JsonPropertyDescription("Parallelism is the requested parallelism, it can be set to any non-negative value. If "
            + "it is unspecified, it defaults to 1. If it is specified as 0, then the Job is effectively paused until "
            + "it is increased.")
    private IntOrString parallelism;
    @JsonPropertyDescription("PullPolicy is an optional field to set parameters of the pulling task. If not "
            + "specified, the system will use the default values.")
    private PullPolicy pullPolicy;
    @Required
    @JsonPropertyDescription("CompletionPolicy indicates the completion policy of the job. Default is Always "
            + "CompletionPolicyType.")
    private CompletionPolicy completionPolicy;
    @JsonPropertyDescription("SandboxConfig support attach metadata in PullImage CRI interface during ImagePulljobs")
    private SandboxConfig sandboxConfig;
    @JsonPropertyDescription("Image pull policy. One of Always, IfNotPresent. Defaults to IfNotPresent.")
    private String imagePullPolicy;

    public List<String> getPullSecrets() {
        return pullSecrets;
    }

    public void setPullSecrets(List<String> pullSecrets) {
        this.pullSecrets = pullSecrets;
    }

    public ImagePullJobNodeSelector getSelector() {
        return selector;
    }

    public void setSelector(ImagePullJobNodeSelector selector) {
        this.selector = selector;
    }

    public ImagePullJobPodSelector getPodSelector() {
        return podSelector;
    }

    public void setPodSelector(ImagePullJobPodSelector podSelector) {
        this.podSelector = podSelector;
    }

    public IntOrString getParallelism() {
        return parallelism;
    }

    public void setParallelism(IntOrString parallelism) {
        this.parallelism = parallelism;
    }

    public PullPolicy getPullPolicy() {
        return pullPolicy;
    }

    public void setPullPolicy(PullPolicy pullPolicy) {
        this.pullPolicy = pullPolicy;
    }

    public CompletionPolicy getCompletionPolicy() {
        return completionPolicy;
    }

    public void setCompletionPolicy(CompletionPolicy completionPolicy) {
        this.completionPolicy = completionPolicy;
    }

    public SandboxConfig getSandboxConfig() {
        return sandboxConfig;
    }

    public void setSandboxConfig(SandboxConfig sandboxConfig) {
        this.sandboxConfig = sandboxConfig;
    }

    public String getImagePullPolicy() {
        return imagePullPolicy;
    }

    public void setImagePullPolicy(String imagePullPolicy) {
        this.imagePullPolicy = imagePullPolicy;
    }

    /** The image pull policy as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<ImagePullPolicy> imagePullPolicyValue() {
        return ImagePullPolicy.fromValue(imagePullPolicy);
    }

    /** The completion policy, never null. */
    public CompletionPolicy completionPolicy() {
        return completionPolicy == null ? new CompletionPolicy() : completionPolicy;
    }

    /** The pull policy, never null. */
    public PullPolicy pullPolicy() {
        return pullPolicy == null ? new PullPolicy() : pullPolicy;
    }

    /** The pull secrets, never null. */
    public List<String> pullSecrets() {
        return pullSecrets == null ? List.of() : pullSecrets;
    }
}
