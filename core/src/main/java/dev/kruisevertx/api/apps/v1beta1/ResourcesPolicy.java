package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaEnum;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;
import java.util.Optional;

/** Resources of a sidecar computed from the pod's containers when the pod is created. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ResourcesPolicy extends UnknownFields {
    @Required
    @SchemaEnum({"sum", "max"})
    @JsonPropertyDescription("sum or max of the target containers' resources.")
    private String targetContainersMode;

    @Default(".*")
    @JsonPropertyDescription("Regular expression selecting target containers by name (default .*).")
    private String targetContainersNameRegex;

    @Required
    @JsonPropertyDescription("Expressions for the sidecar's resources.")
    private ResourcesExpr resourcesExpr;

    public String getTargetContainersMode() {
        return targetContainersMode;
    }

    public void setTargetContainersMode(String targetContainersMode) {
        this.targetContainersMode = targetContainersMode;
    }

    /** {@code targetContainersMode} as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<TargetContainersModeType> targetContainersModeValue() {
        return TargetContainersModeType.fromValue(targetContainersMode);
    }

    public String getTargetContainersNameRegex() {
        return targetContainersNameRegex;
    }

    public void setTargetContainersNameRegex(String targetContainersNameRegex) {
        this.targetContainersNameRegex = targetContainersNameRegex;
    }

    public ResourcesExpr getResourcesExpr() {
        return resourcesExpr;
    }

    public void setResourcesExpr(ResourcesExpr resourcesExpr) {
        this.resourcesExpr = resourcesExpr;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ResourcesPolicy that)) return false;
        return Objects.equals(targetContainersMode, that.targetContainersMode) && Objects.equals(targetContainersNameRegex, that.targetContainersNameRegex) && Objects.equals(resourcesExpr, that.resourcesExpr)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(targetContainersMode, targetContainersNameRegex, resourcesExpr, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ResourcesPolicy{" + "targetContainersMode=" + targetContainersMode + ", " + "targetContainersNameRegex=" + targetContainersNameRegex + ", " + "resourcesExpr=" + resourcesExpr + '}';
    }
}
