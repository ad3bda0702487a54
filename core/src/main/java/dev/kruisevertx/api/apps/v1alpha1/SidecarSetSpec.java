package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectionStrategy;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetPatchPodMetadata;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategy;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.List;
import java.util.Objects;

/** Desired state of a v1alpha1 SidecarSet: v1beta1's fields with spec.namespace instead of spec.customVersion (the custom version is a label). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SidecarSetSpec extends UnknownFields {
    @JsonPropertyDescription("Pods the SidecarSet injects and upgrades.")
    private LabelSelector selector;

    @JsonPropertyDescription("Only pods of this namespace (v1beta1: namespaceSelector on kubernetes.io/metadata.name).")
    private String namespace;

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

    public LabelSelector getSelector() {
        return selector;
    }

    public void setSelector(LabelSelector selector) {
        this.selector = selector;
    }

    public String getNamespace() {
        return namespace;
    }

    public void setNamespace(String namespace) {
        this.namespace = namespace;
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

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof SidecarSetSpec that)) return false;
        return Objects.equals(selector, that.selector) && Objects.equals(namespace, that.namespace) && Objects.equals(namespaceSelector, that.namespaceSelector) && Objects.equals(initContainers, that.initContainers) && Objects.equals(containers, that.containers) && Objects.equals(volumes, that.volumes) && Objects.equals(updateStrategy, that.updateStrategy) && Objects.equals(injectionStrategy, that.injectionStrategy) && Objects.equals(imagePullSecrets, that.imagePullSecrets) && Objects.equals(revisionHistoryLimit, that.revisionHistoryLimit) && Objects.equals(patchPodMetadata, that.patchPodMetadata)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(selector, namespace, namespaceSelector, initContainers, containers, volumes, updateStrategy, injectionStrategy, imagePullSecrets, revisionHistoryLimit, patchPodMetadata, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "SidecarSetSpec{" + "selector=" + selector + ", " + "namespace=" + namespace + ", " + "namespaceSelector=" + namespaceSelector + ", " + "initContainers=" + initContainers + ", " + "containers=" + containers + ", " + "volumes=" + volumes + ", " + "updateStrategy=" + updateStrategy + ", " + "injectionStrategy=" + injectionStrategy + ", " + "imagePullSecrets=" + imagePullSecrets + ", " + "revisionHistoryLimit=" + revisionHistoryLimit + ", " + "patchPodMetadata=" + patchPodMetadata + '}';
    }
}
