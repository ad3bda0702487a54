package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.Objects;
import java.util.Optional;

/** How the containers of a ContainerRecreateRequest are recreated. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ContainerRecreateRequestStrategy extends UnknownFields {
    @JsonPropertyDescription("FailurePolicy decides whether to continue if one container fails to recreate")
    private String failurePolicy;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("OrderedRecreate indicates whether to recreate the next container only if the previous "
            + "one has recreated completely.")
    private boolean orderedRecreate;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("ForceRecreate indicates whether to force kill the container even if the previous "
            + "container is starting.")
    private boolean forceRecreate;
    @JsonPropertyDescription("TerminationGracePeriodSeconds is the optional duration in seconds to wait the container "
            + "terminating gracefully. Value must be non-negative integer. The value zero indicates delete "
            + "immediately. If this value is nil, we will use pod.Spec.TerminationGracePeriodSeconds as default value.")
    private Long terminationGracePeriodSeconds;
    @JsonPropertyDescription("UnreadyGracePeriodSeconds is the optional duration in seconds to mark Pod as not ready "
            + "over this duration before executing preStop hook and stopping the container.")
    private Long unreadyGracePeriodSeconds;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Minimum number of seconds for which a newly created container should be started and "
            + "ready without any of its container crashing, for it to be considered Succeeded. Defaults to 0 "
            + "(container will be considered Succeeded as soon as it is started and ready)")
    private int minStartedSeconds;

    public String getFailurePolicy() {
        return failurePolicy;
    }

    public void setFailurePolicy(String failurePolicy) {
        this.failurePolicy = failurePolicy;
    }

    /** The policy as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<ContainerRecreateRequestFailurePolicy> failurePolicyValue() {
        return ContainerRecreateRequestFailurePolicy.fromValue(failurePolicy);
    }

    public boolean isOrderedRecreate() {
        return orderedRecreate;
    }

    public void setOrderedRecreate(boolean orderedRecreate) {
        this.orderedRecreate = orderedRecreate;
    }

    public boolean isForceRecreate() {
        return forceRecreate;
    }

    public void setForceRecreate(boolean forceRecreate) {
        this.forceRecreate = forceRecreate;
    }

    public Long getTerminationGracePeriodSeconds() {
        return terminationGracePeriodSeconds;
    }

    public void setTerminationGracePeriodSeconds(Long terminationGracePeriodSeconds) {
        this.terminationGracePeriodSeconds = terminationGracePeriodSeconds;
    }

    public Long getUnreadyGracePeriodSeconds() {
        return unreadyGracePeriodSeconds;
    }

    public void setUnreadyGracePeriodSeconds(Long unreadyGracePeriodSeconds) {
        this.unreadyGracePeriodSeconds = unreadyGracePeriodSeconds;
    }

    public int getMinStartedSeconds() {
        return minStartedSeconds;
    }

    public void setMinStartedSeconds(int minStartedSeconds) {
        this.minStartedSeconds = minStartedSeconds;
    }

    /** Failure policy Ignore; anything else (including unset) behaves as Fail. */
    public boolean ignoresFailures() {
        return failurePolicyValue().orElse(null) == ContainerRecreateRequestFailurePolicy.IGNORE;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ContainerRecreateRequestStrategy that)) return false;
        return orderedRecreate == that.orderedRecreate && forceRecreate == that.forceRecreate
                && minStartedSeconds == that.minStartedSeconds && Objects.equals(failurePolicy, that.failurePolicy)
                && Objects.equals(terminationGracePeriodSeconds, that.terminationGracePeriodSeconds)
                && Objects.equals(unreadyGracePeriodSeconds, that.unreadyGracePeriodSeconds)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(failurePolicy, orderedRecreate, forceRecreate, terminationGracePeriodSeconds,
                unreadyGracePeriodSeconds, minStartedSeconds, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ContainerRecreateRequestStrategy{failurePolicy=" + failurePolicy + ", orderedRecreate="
                + orderedRecreate + ", forceRecreate=" + forceRecreate + ", terminationGracePeriodSeconds="
                + terminationGracePeriodSeconds + ", unreadyGracePeriodSeconds=" + unreadyGracePeriodSeconds
                + ", minStartedSeconds=" + minStartedSeconds + '}';
    }
}
