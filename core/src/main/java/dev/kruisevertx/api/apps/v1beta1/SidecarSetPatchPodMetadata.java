package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Metadata a SidecarSet writes into the pods it injects. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SidecarSetPatchPodMetadata extends UnknownFields {
    @JsonPropertyDescription("Annotations to write.")
    private Map<String, String> annotations;

    @JsonPropertyDescription("Retain (default), Overwrite or MergePatchJson.")
    private String patchPolicy;

    public Map<String, String> getAnnotations() {
        return annotations;
    }

    public void setAnnotations(Map<String, String> annotations) {
        this.annotations = annotations;
    }

    public String getPatchPolicy() {
        return patchPolicy;
    }

    public void setPatchPolicy(String patchPolicy) {
        this.patchPolicy = patchPolicy;
    }

    /** {@code patchPolicy} as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<SidecarSetPatchPolicyType> patchPolicyValue() {
        return SidecarSetPatchPolicyType.fromValue(patchPolicy);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof SidecarSetPatchPodMetadata that)) return false;
        return Objects.equals(annotations, that.annotations) && Objects.equals(patchPolicy, that.patchPolicy)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(annotations, patchPolicy, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "SidecarSetPatchPodMetadata{" + "annotations=" + annotations + ", " + "patchPolicy=" + patchPolicy + '}';
    }
}
