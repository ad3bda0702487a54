package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

/** How a template change reaches the subsets. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UnitedDeploymentUpdateStrategy extends UnknownFields {
    public static final String MANUAL = UnitedDeploymentUpdateStrategyType.MANUAL.value();

    @JsonPropertyDescription("Type of UnitedDeployment update strategy. Default is Manual.")
    private String type;
    @JsonPropertyDescription("Includes all of the parameters a Manual update strategy needs.")
    private ManualUpdate manualUpdate;

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    public ManualUpdate getManualUpdate() {
        return manualUpdate;
    }

    public void setManualUpdate(ManualUpdate manualUpdate) {
        this.manualUpdate = manualUpdate;
    }

    /** The type as an enum; empty when unset or unknown. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public java.util.Optional<UnitedDeploymentUpdateStrategyType> typeValue() {
        return UnitedDeploymentUpdateStrategyType.fromValue(type);
    }
}
