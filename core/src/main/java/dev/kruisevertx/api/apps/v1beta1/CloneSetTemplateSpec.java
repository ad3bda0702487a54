package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/** Subset template of a v1beta1 CloneSet: the workload's labels and annotations, and its spec. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class CloneSetTemplateSpec extends UnknownFields {
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    private ObjectMeta metadata;
    @Required
    private CloneSetSpec spec;

    public ObjectMeta getMetadata() {
        return metadata;
    }

    public void setMetadata(ObjectMeta metadata) {
        this.metadata = metadata;
    }

    public CloneSetSpec getSpec() {
        return spec;
    }

    public void setSpec(CloneSetSpec spec) {
        this.spec = spec;
    }
}
