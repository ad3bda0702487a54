package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaEnum;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Default;
import java.util.Objects;
import java.util.Optional;

/** Which revision of the SidecarSet new pods are injected with. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SidecarSetInjectRevision extends UnknownFields {
    @JsonPropertyDescription("Revision by its apps.kruise.io/sidecarset-custom-version label.")
    private String customVersion;

    @JsonPropertyDescription("Revision by ControllerRevision name.")
    private String revisionName;

    @Default("Always")
    @SchemaEnum({"Always", "Partial"})
    @JsonPropertyDescription("Always (default) or Partial.")
    private String policy;

    public String getCustomVersion() {
        return customVersion;
    }

    public void setCustomVersion(String customVersion) {
        this.customVersion = customVersion;
    }

    public String getRevisionName() {
        return revisionName;
    }

    public void setRevisionName(String revisionName) {
        this.revisionName = revisionName;
    }

    public String getPolicy() {
        return policy;
    }

    public void setPolicy(String policy) {
        this.policy = policy;
    }

    /** {@code policy} as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<SidecarSetInjectRevisionPolicy> policyValue() {
        return SidecarSetInjectRevisionPolicy.fromValue(policy);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof SidecarSetInjectRevision that)) return false;
        return Objects.equals(customVersion, that.customVersion) && Objects.equals(revisionName, that.revisionName) && Objects.equals(policy, that.policy)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(customVersion, revisionName, policy, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "SidecarSetInjectRevision{" + "customVersion=" + customVersion + ", " + "revisionName=" + revisionName + ", " + "policy=" + policy + '}';
    }
}
