package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.SchemalessBase;
import io.fabric8.kubernetes.api.model.Container;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A container a SidecarSet injects: a Kubernetes container plus the injection settings. The CRD keeps the container part schemaless, as OpenKruise's. */
@SchemalessBase
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SidecarContainer extends Container {
    @JsonPropertyDescription("BeforeAppContainer (default) or AfterAppContainer.")
    private String podInjectPolicy;

    @JsonPropertyDescription("ColdUpgrade (default) or HotUpgrade.")
    private SidecarContainerUpgradeStrategy upgradeStrategy;

    @JsonPropertyDescription("Whether the sidecar mounts the volumes of the pod's containers.")
    private ShareVolumePolicy shareVolumePolicy;

    @JsonPropertyDescription("Whether the sidecar gets the volume devices of the pod's containers.")
    private ShareVolumePolicy shareVolumeDevicePolicy;

    @JsonPropertyDescription("Env copied from other containers.")
    private List<TransferEnvVar> transferEnv;

    @JsonPropertyDescription("Resources computed from the pod's containers on creation.")
    private ResourcesPolicy resourcesPolicy;

    public String getPodInjectPolicy() {
        return podInjectPolicy;
    }

    public void setPodInjectPolicy(String podInjectPolicy) {
        this.podInjectPolicy = podInjectPolicy;
    }

    /** {@code podInjectPolicy} as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<PodInjectPolicyType> podInjectPolicyValue() {
        return PodInjectPolicyType.fromValue(podInjectPolicy);
    }

    public SidecarContainerUpgradeStrategy getUpgradeStrategy() {
        return upgradeStrategy;
    }

    public void setUpgradeStrategy(SidecarContainerUpgradeStrategy upgradeStrategy) {
        this.upgradeStrategy = upgradeStrategy;
    }

    public ShareVolumePolicy getShareVolumePolicy() {
        return shareVolumePolicy;
    }

    public void setShareVolumePolicy(ShareVolumePolicy shareVolumePolicy) {
        this.shareVolumePolicy = shareVolumePolicy;
    }

    public ShareVolumePolicy getShareVolumeDevicePolicy() {
        return shareVolumeDevicePolicy;
    }

    public void setShareVolumeDevicePolicy(ShareVolumePolicy shareVolumeDevicePolicy) {
        this.shareVolumeDevicePolicy = shareVolumeDevicePolicy;
    }

    public List<TransferEnvVar> getTransferEnv() {
        return transferEnv;
    }

    public void setTransferEnv(List<TransferEnvVar> transferEnv) {
        this.transferEnv = transferEnv;
    }

    public ResourcesPolicy getResourcesPolicy() {
        return resourcesPolicy;
    }

    public void setResourcesPolicy(ResourcesPolicy resourcesPolicy) {
        this.resourcesPolicy = resourcesPolicy;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof SidecarContainer that)) return false;
        return Objects.equals(podInjectPolicy, that.podInjectPolicy) && Objects.equals(upgradeStrategy, that.upgradeStrategy) && Objects.equals(shareVolumePolicy, that.shareVolumePolicy) && Objects.equals(shareVolumeDevicePolicy, that.shareVolumeDevicePolicy) && Objects.equals(transferEnv, that.transferEnv) && Objects.equals(resourcesPolicy, that.resourcesPolicy)
                && super.equals(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(podInjectPolicy, upgradeStrategy, shareVolumePolicy, shareVolumeDevicePolicy, transferEnv, resourcesPolicy, super.hashCode());
    }

    @Override
    public String toString() {
        return "SidecarContainer{" + "podInjectPolicy=" + podInjectPolicy + ", " + "upgradeStrategy=" + upgradeStrategy + ", " + "shareVolumePolicy=" + shareVolumePolicy + ", " + "shareVolumeDevicePolicy=" + shareVolumeDevicePolicy + ", " + "transferEnv=" + transferEnv + ", " + "resourcesPolicy=" + resourcesPolicy + '}';
    }
}
