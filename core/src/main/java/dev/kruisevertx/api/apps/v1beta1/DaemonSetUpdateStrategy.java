package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import java.util.Objects;
import java.util.Optional;

/** How an Advanced DaemonSet moves pods to a new revision. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class DaemonSetUpdateStrategy extends UnknownFields {
    @JsonPropertyDescription("RollingUpdate (default) or OnDelete.")
    private String type;

    @JsonPropertyDescription("Parameters of RollingUpdate.")
    private RollingUpdateDaemonSet rollingUpdate;

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    public RollingUpdateDaemonSet getRollingUpdate() {
        return rollingUpdate;
    }

    public void setRollingUpdate(RollingUpdateDaemonSet rollingUpdate) {
        this.rollingUpdate = rollingUpdate;
    }

    /** The type as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<DaemonSetUpdateStrategyType> typeValue() {
        return DaemonSetUpdateStrategyType.fromValue(type);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof DaemonSetUpdateStrategy that)) return false;
        return Objects.equals(type, that.type)
                && Objects.equals(rollingUpdate, that.rollingUpdate)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, rollingUpdate, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "DaemonSetUpdateStrategy{" + "type=" + type + ", " + "rollingUpdate=" + rollingUpdate + '}';
    }
}
