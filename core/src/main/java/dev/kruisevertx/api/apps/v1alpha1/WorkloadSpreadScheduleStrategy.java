package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemaEnum;
import dev.kruisevertx.api.common.UnknownFields;

/** How a WorkloadSpread treats pods a subset cannot schedule: Fixed (the default) or Adaptive. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class WorkloadSpreadScheduleStrategy extends UnknownFields {
    @SchemaEnum({"Adaptive", "Fixed", ""})
    @JsonPropertyDescription("Adaptive or Fixed; empty means Fixed.")
    private String type;
    @JsonPropertyDescription("Settings of the Adaptive strategy; only with type Adaptive.")
    private AdaptiveWorkloadSpreadStrategy adaptive;

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    public AdaptiveWorkloadSpreadStrategy getAdaptive() {
        return adaptive;
    }

    public void setAdaptive(AdaptiveWorkloadSpreadStrategy adaptive) {
        this.adaptive = adaptive;
    }

    /** True when the type is exactly {@code Adaptive}. */
    public boolean isAdaptive() {
        return WorkloadSpreadScheduleStrategyType.ADAPTIVE.value().equals(type);
    }
}
