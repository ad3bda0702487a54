package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.List;

/** One image name of a NodeImage: its tags, the secrets to pull them with and the sandbox config. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ImageSpec extends UnknownFields {
    @JsonPropertyDescription("PullSecrets is an optional list of references to secrets in the same namespace to use for pulling the image.")
    private List<ReferenceObject> pullSecrets;
    @Required
    @JsonPropertyDescription("Tags is a list of versions of this image")
    private List<ImageTagSpec> tags;
    @JsonPropertyDescription("SandboxConfig support attach metadata in PullImage CRI interface during ImagePulljobs")
    private SandboxConfig sandboxConfig;

    public List<ReferenceObject> getPullSecrets() {
        return pullSecrets;
    }

    public void setPullSecrets(List<ReferenceObject> pullSecrets) {
        this.pullSecrets = pullSecrets;
    }

    public List<ImageTagSpec> getTags() {
        return tags;
    }

    public void setTags(List<ImageTagSpec> tags) {
        this.tags = tags;
    }

    public SandboxConfig getSandboxConfig() {
        return sandboxConfig;
    }

    public void setSandboxConfig(SandboxConfig sandboxConfig) {
        this.sandboxConfig = sandboxConfig;
    }

    /** The tags, never null. */
    public List<ImageTagSpec> tags() {
        return tags == null ? List.of() : tags;
    }

    /** The pull secrets, never null. */
    public List<ReferenceObject> pullSecrets() {
        return pullSecrets == null ? List.of() : pullSecrets;
    }
}
