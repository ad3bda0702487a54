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

/** Subset template of an Advanced StatefulSet (apps.kruise.io/v1beta1): the workload's labels and annotations, and its spec. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class AdvancedStatefulSetTemplateSpec extends UnknownFields {
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    private ObjectMeta metadata;
    @Required
    private dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec spec;

    public ObjectMeta getMetadata() {
        return metadata;
    }

    public void setMetadata(ObjectMeta metadata) {
        this.metadata = metadata;
    }

    public dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec getSpec() {
        return spec;
    }

    public void setSpec(dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec spec) {
        this.spec = spec;
    }
}
