package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/** The BroadcastJob an AdvancedCronJob creates per run: labels and annotations, and the spec. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class BroadcastJobTemplateSpec extends UnknownFields {
    @PreserveUnknownFields
    @io.fabric8.crd.generator.annotation.SchemaFrom(type = EmptyObject.class)
    @JsonPropertyDescription("Standard object's metadata of the jobs created from this template.")
    private ObjectMeta metadata;
    @JsonPropertyDescription("Specification of the desired behavior of the broadcastjob.")
    private BroadcastJobSpec spec;

    public ObjectMeta getMetadata() {
        return metadata;
    }

    public void setMetadata(ObjectMeta metadata) {
        this.metadata = metadata;
    }

    public BroadcastJobSpec getSpec() {
        return spec;
    }

    public void setSpec(BroadcastJobSpec spec) {
        this.spec = spec;
    }

    /** Schema stand-in: controller-gen writes an embedded ObjectMeta as a bare {@code type: object}. */
    public static final class EmptyObject {
    }
}
