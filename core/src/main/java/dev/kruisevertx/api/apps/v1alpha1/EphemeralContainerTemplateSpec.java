package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.EphemeralContainer;

import java.util.List;

/** The ephemeral containers an EphemeralJob adds; schemaless in the CRD, as OpenKruise's. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class EphemeralContainerTemplateSpec extends UnknownFields {
    @Required
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    @com.fasterxml.jackson.annotation.JsonPropertyDescription("EphemeralContainers defines ephemeral container list "
            + "in match pods.")
    private List<EphemeralContainer> ephemeralContainers;

    public List<EphemeralContainer> getEphemeralContainers() {
        return ephemeralContainers;
    }

    public void setEphemeralContainers(List<EphemeralContainer> ephemeralContainers) {
        this.ephemeralContainers = ephemeralContainers;
    }

    /** The containers, never null. */
    public List<EphemeralContainer> containers() {
        return ephemeralContainers == null ? List.of() : ephemeralContainers;
    }
}
