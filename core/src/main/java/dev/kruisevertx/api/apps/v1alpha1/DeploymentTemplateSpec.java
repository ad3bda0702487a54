package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/** Subset template of an apps/v1 Deployment: the workload's labels and annotations, and its spec. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class DeploymentTemplateSpec extends UnknownFields {
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    private ObjectMeta metadata;
    @Required
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    private io.fabric8.kubernetes.api.model.apps.DeploymentSpec spec;

    public ObjectMeta getMetadata() {
        return metadata;
    }

    public void setMetadata(ObjectMeta metadata) {
        this.metadata = metadata;
    }

    public io.fabric8.kubernetes.api.model.apps.DeploymentSpec getSpec() {
        return spec;
    }

    public void setSpec(io.fabric8.kubernetes.api.model.apps.DeploymentSpec spec) {
        this.spec = spec;
    }
}
