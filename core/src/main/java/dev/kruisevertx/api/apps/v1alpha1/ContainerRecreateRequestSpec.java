package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.List;
import java.util.Objects;

/** Desired state of a ContainerRecreateRequest. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ContainerRecreateRequestSpec extends UnknownFields {
    @Required
    @JsonPropertyDescription("PodName is name of the Pod that owns the recreated containers.")
    private String podName;
    @Required
    @JsonPropertyDescription("Containers contains the containers that need to recreate in the Pod.")
    private List<ContainerRecreateRequestContainer> containers;
    @JsonPropertyDescription("Strategy defines strategies for containers recreation.")
    private ContainerRecreateRequestStrategy strategy;
    @JsonPropertyDescription("ActiveDeadlineSeconds is the deadline duration of this ContainerRecreateRequest.")
    private Long activeDeadlineSeconds;
    @JsonPropertyDescription("TTLSecondsAfterFinished is the TTL duration after this ContainerRecreateRequest has "
            + "completed.")
    private Integer ttlSecondsAfterFinished;

    public String getPodName() {
        return podName;
    }

    public void setPodName(String podName) {
        this.podName = podName;
    }

    public List<ContainerRecreateRequestContainer> getContainers() {
        return containers;
    }

    public void setContainers(List<ContainerRecreateRequestContainer> containers) {
        this.containers = containers;
    }

    public ContainerRecreateRequestStrategy getStrategy() {
        return strategy;
    }

    public void setStrategy(ContainerRecreateRequestStrategy strategy) {
        this.strategy = strategy;
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

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ContainerRecreateRequestSpec that)) return false;
        return Objects.equals(podName, that.podName) && Objects.equals(containers, that.containers)
                && Objects.equals(strategy, that.strategy)
                && Objects.equals(activeDeadlineSeconds, that.activeDeadlineSeconds)
                && Objects.equals(ttlSecondsAfterFinished, that.ttlSecondsAfterFinished) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(podName, containers, strategy, activeDeadlineSeconds, ttlSecondsAfterFinished,
                unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ContainerRecreateRequestSpec{podName=" + podName + ", containers=" + containers + ", strategy="
                + strategy + ", activeDeadlineSeconds=" + activeDeadlineSeconds + ", ttlSecondsAfterFinished="
                + ttlSecondsAfterFinished + '}';
    }
}
