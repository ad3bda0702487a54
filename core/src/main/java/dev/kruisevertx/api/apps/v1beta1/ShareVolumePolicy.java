package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import java.util.Objects;
import java.util.Optional;

/** Whether a sidecar shares the volume mounts (or devices) of the pod's containers. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ShareVolumePolicy extends UnknownFields {
    @JsonPropertyDescription("enabled or disabled (default).")
    private String type;

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    /** {@code type} as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<ShareVolumePolicyType> typeValue() {
        return ShareVolumePolicyType.fromValue(type);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ShareVolumePolicy that)) return false;
        return Objects.equals(type, that.type)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ShareVolumePolicy{" + "type=" + type + '}';
    }
}
