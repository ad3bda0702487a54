package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.AnyType;

/** What a v1beta1 ResourceDistribution copies ({@code resource}) and where ({@code targets}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ResourceDistributionSpec extends UnknownFields {
    @Required
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    @JsonPropertyDescription("The Secret or ConfigMap to distribute, a complete object with apiVersion, kind and "
            + "metadata.name (its namespace is ignored).")
    private JsonNode resource;
    @Required
    @JsonPropertyDescription("The namespaces the resource is distributed to.")
    private ResourceDistributionTargets targets;

    public JsonNode getResource() {
        return resource;
    }

    public void setResource(JsonNode resource) {
        this.resource = resource;
    }

    public ResourceDistributionTargets getTargets() {
        return targets;
    }

    public void setTargets(ResourceDistributionTargets targets) {
        this.targets = targets;
    }

    /** The targets, never null. */
    public ResourceDistributionTargets targets() {
        return targets == null ? new ResourceDistributionTargets() : targets;
    }
}
