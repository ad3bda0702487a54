package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.Optional;

/** When a BroadcastJob counts as finished: {@code type} Always (default) or Never, a deadline and a TTL. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class CompletionPolicy extends UnknownFields {
    @JsonPropertyDescription("Type indicates the type of the CompletionPolicy. Default is Always.")
    private String type;
    @JsonPropertyDescription("ActiveDeadlineSeconds specifies the duration in seconds relative to the startTime that "
            + "the job may be active before the system tries to terminate it; value must be positive integer. Only "
            + "works for Always type.")
    private Long activeDeadlineSeconds;
    @JsonPropertyDescription("ttlSecondsAfterFinished limits the lifetime of a Job that has finished execution "
            + "(either Complete or Failed). Only works for Always type.")
    private Integer ttlSecondsAfterFinished;

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    /** The type as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<CompletionPolicyType> typeValue() {
        return CompletionPolicyType.fromValue(type);
    }

    public Long getActiveDeadlineSeconds() {
        return activeDeadlineSeconds;
    }

    public void setActiveDeadlineSeconds(Long activeDeadlineSeconds) {
        this.activeDeadlineSeconds = activeDeadlineSeconds;
    }

    public Integer getTtlSecondsAfterFinished() {
        return ttlSecondsAfterFinished;
    }

    public void setTtlSecondsAfterFinished(Integer ttlSecondsAfterFinished) {
        this.ttlSecondsAfterFinished = ttlSecondsAfterFinished;
    }
}
