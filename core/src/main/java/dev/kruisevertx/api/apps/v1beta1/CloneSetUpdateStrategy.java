package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.Objects;
import java.util.Optional;

/** How a v1beta1 CloneSet moves pods to a new revision: the type, and the rolling-update knobs under it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class CloneSetUpdateStrategy extends UnknownFields {
    @JsonPropertyDescription("RollingUpdate (default) or OnDelete.")
    private String type;
    @JsonPropertyDescription("Knobs of a rolling update.")
    private RollingUpdateCloneSetStrategy rollingUpdate;

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    /** The parsed type; empty when unset or unknown. */
    @JsonIgnore
    public Optional<CloneSetUpdateStrategyType> typeValue() {
        return CloneSetUpdateStrategyType.fromValue(type);
    }

    public RollingUpdateCloneSetStrategy getRollingUpdate() {
        return rollingUpdate;
    }

    public void setRollingUpdate(RollingUpdateCloneSetStrategy rollingUpdate) {
        this.rollingUpdate = rollingUpdate;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof CloneSetUpdateStrategy that)) return false;
        return Objects.equals(type, that.type) && Objects.equals(rollingUpdate, that.rollingUpdate)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, rollingUpdate, unknownFieldsHash());
    }
}
