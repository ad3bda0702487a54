package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.ObjectReference;

import java.util.List;
import java.util.Optional;

/** One tag of an image on a NodeImage: when it was asked for, how to pull it and which jobs want it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ImageTagSpec extends UnknownFields {
    @Required
    @JsonPropertyDescription("Specifies the image tag")
    private String tag;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Specifies the create time of this tag")
    private String createdAt;
    @JsonPropertyDescription("PullPolicy is an optional field to set parameters of the pulling task. If not specified, the system will use the default values.")
    private ImageTagPullPolicy pullPolicy;
    @JsonPropertyDescription("List of objects depended by this object. If this image is managed by a controller, then an entry in this list will point to this controller.")
    private List<ObjectReference> ownerReferences;
    @JsonPropertyDescription("An opaque value that represents the internal version of this tag that can be used by clients to determine when objects have changed. May be used for optimistic concurrency, change detection, and the watch operation on a resource or set of resources. Clients must treat these values as opaque and passed unmodified back to the server. Populated by the system. Read-only. Value must be treated as opaque by clients and .")
    private Long version;
    @JsonPropertyDescription("Image pull policy. One of Always, IfNotPresent. Defaults to IfNotPresent.")
    private String imagePullPolicy;

    public String getTag() {
        return tag;
    }

    public void setTag(String tag) {
        this.tag = tag;
    }

    public String getCreatedAt() {
        return createdAt;
    }

    public void setCreatedAt(String createdAt) {
        this.createdAt = createdAt;
    }

    public ImageTagPullPolicy getPullPolicy() {
        return pullPolicy;
    }

    public void setPullPolicy(ImageTagPullPolicy pullPolicy) {
        this.pullPolicy = pullPolicy;
    }

    public List<ObjectReference> getOwnerReferences() {
        return ownerReferences;
    }

    public void setOwnerReferences(List<ObjectReference> ownerReferences) {
        this.ownerReferences = ownerReferences;
    }

    public Long getVersion() {
        return version;
    }

    public void setVersion(Long version) {
        this.version = version;
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

    /** The version, 0 when unset. */
    public long versionOrZero() {
        return version == null ? 0 : version;
    }

    /** The owners, never null. */
    public List<ObjectReference> ownerReferences() {
        return ownerReferences == null ? List.of() : ownerReferences;
    }
}
