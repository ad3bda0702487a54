package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.List;
import java.util.Objects;

/** Desired state of a SidecarSet (v1beta1, the stored version). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SidecarSetSpec extends UnknownFields {
    @JsonPropertyDescription("Pods the SidecarSet injects and upgrades.")
    private LabelSelector selector;

    @JsonPropertyDescription("Only pods of namespaces matching it.")
    private LabelSelector namespaceSelector;

    @JsonPropertyDescription("Init containers to inject, after the pod's own, sorted by name.")
    private List<SidecarContainer> initContainers;

    @JsonPropertyDescription("Containers to inject.")
    private List<SidecarContainer> containers;

    @SchemaFrom(type = AnyType.class)
    @PreserveUnknownFields
    @JsonPropertyDescription("Volumes the sidecars mount; injected unless the pod has a volume of that name.")
    private List<Volume> volumes;

    @JsonPropertyDescription("How the sidecars of existing pods are upgraded.")
    private SidecarSetUpdateStrategy updateStrategy;

    @JsonPropertyDescription("How the SidecarSet is injected into new pods.")
    private SidecarSetInjectionStrategy injectionStrategy;

    @JsonPropertyDescription("Secrets added to the pod's imagePullSecrets.")
    private List<LocalObjectReference> imagePullSecrets;

    @JsonPropertyDescription("ControllerRevisions kept (default 10).")
    private Integer revisionHistoryLimit;

    @JsonPropertyDescription("Metadata written into injected pods.")
    private List<SidecarSetPatchPodMetadata> patchPodMetadata;

    @JsonPropertyDescription("Version recorded as label apps.kruise.io/sidecarset-custom-version of the ControllerRevision.")
    private String customVersion;

    public LabelSelector getSelector() {
        return selector;
    }

    public void setSelector(LabelSelector selector) {
        this.selector = selector;
    }

    public LabelSelector getNamespaceSelector() {
        return namespaceSelector;
    }

    public void setNamespaceSelector(LabelSelector namespaceSelector) {
        this.namespaceSelector = namespaceSelector;
    }

    public List<SidecarContainer> getInitContainers() {
        return initContainers;
    }

    public void setInitContainers(List<SidecarContainer> initContainers) {
        this.initContainers = initContainers;
    }

    public List<SidecarContainer> getContainers() {
        return containers;
    }

    public void setContainers(List<SidecarContainer> containers) {
        this.containers = containers;
    }

    public List<Volume> getVolumes() {
        return volumes;
    }

    public void setVolumes(List<Volume> volumes) {
        this.volumes = volumes;
    }

    public SidecarSetUpdateStrategy getUpdateStrategy() {
        return updateStrategy;
    }

    public void setUpdateStrategy(SidecarSetUpdateStrategy updateStrategy) {
        this.updateStrategy = updateStrategy;
    }

    public SidecarSetInjectionStrategy getInjectionStrategy() {
        return injectionStrategy;
    }

    public void setInjectionStrategy(SidecarSetInjectionStrategy injectionStrategy) {
        this.injectionStrategy = injectionStrategy;
    }

    public List<LocalObjectReference> getImagePullSecrets() {
        return imagePullSecrets;
    }

    public void setImagePullSecrets(List<LocalObjectReference> imagePullSecrets) {
        this.imagePullSecrets = imagePullSecrets;
    }

    public Integer getRevisionHistoryLimit() {
        return revisionHistoryLimit;
    }

    public void setRevisionHistoryLimit(Integer revisionHistoryLimit) {
        this.revisionHistoryLimit = revisionHistoryLimit;
    }

    public List<SidecarSetPatchPodMetadata> getPatchPodMetadata() {
        return patchPodMetadata;
    }

    public void setPatchPodMetadata(List<SidecarSetPatchPodMetadata> patchPodMetadata) {
        this.patchPodMetadata = patchPodMetadata;
    }

    public String getCustomVersion() {
        return customVersion;
    }

    public void setCustomVersion(String customVersion) {
        this.customVersion = customVersion;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof SidecarSetSpec that)) return false;
        return Objects.equals(selector, that.selector) && Objects.equals(namespaceSelector, that.namespaceSelector) && Objects.equals(initContainers, that.initContainers) && Objects.equals(containers, that.containers) && Objects.equals(volumes, that.volumes) && Objects.equals(updateStrategy, that.updateStrategy) && Objects.equals(injectionStrategy, that.injectionStrategy) && Objects.equals(imagePullSecrets, that.imagePullSecrets) && Objects.equals(revisionHistoryLimit, that.revisionHistoryLimit) && Objects.equals(patchPodMetadata, that.patchPodMetadata) && Objects.equals(customVersion, that.customVersion)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(selector, namespaceSelector, initContainers, containers, volumes, updateStrategy, injectionStrategy, imagePullSecrets, revisionHistoryLimit, patchPodMetadata, customVersion, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "SidecarSetSpec{" + "selector=" + selector + ", " + "namespaceSelector=" + namespaceSelector + ", " + "initContainers=" + initContainers + ", " + "containers=" + containers + ", " + "volumes=" + volumes + ", " + "updateStrategy=" + updateStrategy + ", " + "injectionStrategy=" + injectionStrategy + ", " + "imagePullSecrets=" + imagePullSecrets + ", " + "revisionHistoryLimit=" + revisionHistoryLimit + ", " + "patchPodMetadata=" + patchPodMetadata + ", " + "customVersion=" + customVersion + '}';
    }
}
