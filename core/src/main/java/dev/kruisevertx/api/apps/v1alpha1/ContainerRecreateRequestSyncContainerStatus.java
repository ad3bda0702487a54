package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One entry of the JSON list in the CRR annotation {@code crr.apps.kruise.io/sync-container-statuses}: the pod's view
 * of a recreated container (started after the request), copied by the manager so the agent knows when the new
 * container is ready.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ContainerRecreateRequestSyncContainerStatus(
        @JsonProperty("name") String name,
        @JsonProperty("ready") @JsonInclude(JsonInclude.Include.ALWAYS) boolean ready,
        @JsonProperty("restartCount") @JsonInclude(JsonInclude.Include.ALWAYS) int restartCount,
        @JsonProperty("containerID") String containerID) {
}
