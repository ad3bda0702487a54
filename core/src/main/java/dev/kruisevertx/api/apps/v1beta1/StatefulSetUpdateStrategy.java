package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.Objects;
import java.util.Optional;

/** How a StatefulSet moves pods to a new revision. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class StatefulSetUpdateStrategy extends UnknownFields {
    @JsonPropertyDescription("RollingUpdate (default) or OnDelete.")
    private String type;

    @JsonPropertyDescription("Parameters of RollingUpdate.")
    private RollingUpdateStatefulSetStrategy rollingUpdate;

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    /** The type as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<StatefulSetUpdateStrategyType> typeValue() {
        return StatefulSetUpdateStrategyType.fromValue(type);
    }

    public RollingUpdateStatefulSetStrategy getRollingUpdate() {
        return rollingUpdate;
    }

    public void setRollingUpdate(RollingUpdateStatefulSetStrategy rollingUpdate) {
        this.rollingUpdate = rollingUpdate;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof StatefulSetUpdateStrategy that)) return false;
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
        return "StatefulSetUpdateStrategy{" + "type=" + type + ", " + "rollingUpdate=" + rollingUpdate + '}';
    }
}
