package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

/** An image pull job's per-node pull parameters: timeout of one attempt and the number of retries. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PullPolicy extends UnknownFields {
    public static final int DEFAULT_TIMEOUT_SECONDS = 600;
    public static final int DEFAULT_BACKOFF_LIMIT = 3;

    @JsonPropertyDescription("Specifies the timeout of the pulling task. Defaults to 600")
    private Integer timeoutSeconds;
    @JsonPropertyDescription("Specifies the number of retries before marking the pulling task failed. Defaults to 3")
    private Integer backoffLimit;

    public Integer getTimeoutSeconds() {
        return timeoutSeconds;
    }

    public void setTimeoutSeconds(Integer timeoutSeconds) {
        this.timeoutSeconds = timeoutSeconds;
    }

    public Integer getBackoffLimit() {
        return backoffLimit;
    }

    public void setBackoffLimit(Integer backoffLimit) {
        this.backoffLimit = backoffLimit;
    }

    /** The timeout, 600 s when unset. */
    public int timeoutOrDefault() {
        return timeoutSeconds == null ? DEFAULT_TIMEOUT_SECONDS : timeoutSeconds;
    }

    /** The retries, 3 when unset. */
    public int backoffOrDefault() {
        return backoffLimit == null ? DEFAULT_BACKOFF_LIMIT : backoffLimit;
    }
}
