package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.Optional;

/** What failed pods do to a BroadcastJob: {@code type} Continue, FailFast (default) or Pause, and a restart limit. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class FailurePolicy extends UnknownFields {
    @JsonPropertyDescription("Type indicates the type of FailurePolicyType.")
    private String type;
    @JsonPropertyDescription("RestartLimit specifies the number of retries before marking the pod failed.")
    private Integer restartLimit;

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    /** The type as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<FailurePolicyType> typeValue() {
        return FailurePolicyType.fromValue(type);
    }

    public Integer getRestartLimit() {
        return restartLimit;
    }

    public void setRestartLimit(Integer restartLimit) {
        this.restartLimit = restartLimit;
    }
}
