package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.kruisevertx.api.common.EmbeddedTemplateSerializer;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Desired state of an Advanced StatefulSet (v1beta1, the storage version). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class StatefulSetSpec extends UnknownFields {
    @SpecReplicas
    @JsonPropertyDescription("Desired number of running pods (reserved ordinals not counted); 1 when unset.")
    private Integer replicas;

    @Required
    @JsonPropertyDescription("Label query over the pods this StatefulSet owns; must match the template's labels.")
    private LabelSelector selector;

    @Required
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    @JsonPropertyDescription("Template of the pods; each pod is named <set>-<ordinal>.")
    private PodTemplateSpec template;

    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    @JsonSerialize(contentUsing = EmbeddedTemplateSerializer.class)
    @JsonPropertyDescription("PVCs created for every ordinal, named <template>-<set>-<ordinal>, and mounted by its pod.")
    private List<PersistentVolumeClaim> volumeClaimTemplates;

    @JsonPropertyDescription("Governing headless service giving each pod its stable network identity.")
    private String serviceName;

    @JsonPropertyDescription("OrderedReady (one pod at a time, in ordinal order; default) or Parallel.")
    private String podManagementPolicy;

    @JsonPropertyDescription("How pods move to a new template revision.")
    private StatefulSetUpdateStrategy updateStrategy;

    @JsonPropertyDescription("How many old ControllerRevisions to keep; 10 when unset.")
    private Integer revisionHistoryLimit;

    @JsonPropertyDescription("Ordinals (integers or \"a-b\" ranges) that never get a pod; their pods are deleted and replicas counts only the others.")
    private List<IntOrString> reserveOrdinals;

    @JsonPropertyDescription("Hooks around in-place update and deletion.")
    private Lifecycle lifecycle;

    @JsonPropertyDescription("How pods are created when scaling up.")
    private StatefulSetScaleStrategy scaleStrategy;

    @JsonPropertyDescription("Whether PVCs from volumeClaimTemplates are deleted with the set or on scale-down (gate StatefulSetAutoDeletePVC).")
    private StatefulSetPersistentVolumeClaimRetentionPolicy persistentVolumeClaimRetentionPolicy;

    @JsonPropertyDescription("Numbering of the pods (gate StatefulSetStartOrdinal).")
    private StatefulSetOrdinals ordinals;

    @JsonPropertyDescription("How changes of volumeClaimTemplates reach existing PVCs.")
    private VolumeClaimUpdateStrategy volumeClaimUpdateStrategy;

    public Integer getReplicas() {
        return replicas;
    }

    public void setReplicas(Integer replicas) {
        this.replicas = replicas;
    }

    public LabelSelector getSelector() {
        return selector;
    }

    public void setSelector(LabelSelector selector) {
        this.selector = selector;
    }

    public PodTemplateSpec getTemplate() {
        return template;
    }

    public void setTemplate(PodTemplateSpec template) {
        this.template = template;
    }

    public List<PersistentVolumeClaim> getVolumeClaimTemplates() {
        return volumeClaimTemplates;
    }

    public void setVolumeClaimTemplates(List<PersistentVolumeClaim> volumeClaimTemplates) {
        this.volumeClaimTemplates = volumeClaimTemplates;
    }

    public String getServiceName() {
        return serviceName;
    }

    public void setServiceName(String serviceName) {
        this.serviceName = serviceName;
    }

    public String getPodManagementPolicy() {
        return podManagementPolicy;
    }

    public void setPodManagementPolicy(String podManagementPolicy) {
        this.podManagementPolicy = podManagementPolicy;
    }

    /** The policy as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<PodManagementPolicyType> podManagementPolicyValue() {
        return PodManagementPolicyType.fromValue(podManagementPolicy);
    }

    public StatefulSetUpdateStrategy getUpdateStrategy() {
        return updateStrategy;
    }

    public void setUpdateStrategy(StatefulSetUpdateStrategy updateStrategy) {
        this.updateStrategy = updateStrategy;
    }

    public Integer getRevisionHistoryLimit() {
        return revisionHistoryLimit;
    }

    public void setRevisionHistoryLimit(Integer revisionHistoryLimit) {
        this.revisionHistoryLimit = revisionHistoryLimit;
    }

    public List<IntOrString> getReserveOrdinals() {
        return reserveOrdinals;
    }

    public void setReserveOrdinals(List<IntOrString> reserveOrdinals) {
        this.reserveOrdinals = reserveOrdinals;
    }

    public Lifecycle getLifecycle() {
        return lifecycle;
    }

    public void setLifecycle(Lifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    public StatefulSetScaleStrategy getScaleStrategy() {
        return scaleStrategy;
    }

    public void setScaleStrategy(StatefulSetScaleStrategy scaleStrategy) {
        this.scaleStrategy = scaleStrategy;
    }

    public StatefulSetPersistentVolumeClaimRetentionPolicy getPersistentVolumeClaimRetentionPolicy() {
        return persistentVolumeClaimRetentionPolicy;
    }

    public void setPersistentVolumeClaimRetentionPolicy(StatefulSetPersistentVolumeClaimRetentionPolicy persistentVolumeClaimRetentionPolicy) {
        this.persistentVolumeClaimRetentionPolicy = persistentVolumeClaimRetentionPolicy;
    }

    public StatefulSetOrdinals getOrdinals() {
        return ordinals;
    }

    public void setOrdinals(StatefulSetOrdinals ordinals) {
        this.ordinals = ordinals;
    }

    public VolumeClaimUpdateStrategy getVolumeClaimUpdateStrategy() {
        return volumeClaimUpdateStrategy;
    }

    public void setVolumeClaimUpdateStrategy(VolumeClaimUpdateStrategy volumeClaimUpdateStrategy) {
        this.volumeClaimUpdateStrategy = volumeClaimUpdateStrategy;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof StatefulSetSpec that)) return false;
        return Objects.equals(replicas, that.replicas)
                && Objects.equals(selector, that.selector)
                && Objects.equals(template, that.template)
                && Objects.equals(volumeClaimTemplates, that.volumeClaimTemplates)
                && Objects.equals(serviceName, that.serviceName)
                && Objects.equals(podManagementPolicy, that.podManagementPolicy)
                && Objects.equals(updateStrategy, that.updateStrategy)
                && Objects.equals(revisionHistoryLimit, that.revisionHistoryLimit)
                && Objects.equals(reserveOrdinals, that.reserveOrdinals)
                && Objects.equals(lifecycle, that.lifecycle)
                && Objects.equals(scaleStrategy, that.scaleStrategy)
                && Objects.equals(persistentVolumeClaimRetentionPolicy, that.persistentVolumeClaimRetentionPolicy)
                && Objects.equals(ordinals, that.ordinals)
                && Objects.equals(volumeClaimUpdateStrategy, that.volumeClaimUpdateStrategy)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(replicas, selector, template, volumeClaimTemplates, serviceName, podManagementPolicy, updateStrategy, revisionHistoryLimit, reserveOrdinals, lifecycle, scaleStrategy, persistentVolumeClaimRetentionPolicy, ordinals, volumeClaimUpdateStrategy, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "StatefulSetSpec{" + "replicas=" + replicas + ", " + "selector=" + selector + ", " + "template=" + template + ", " + "volumeClaimTemplates=" + volumeClaimTemplates + ", " + "serviceName=" + serviceName + ", " + "podManagementPolicy=" + podManagementPolicy + ", " + "updateStrategy=" + updateStrategy + ", " + "revisionHistoryLimit=" + revisionHistoryLimit + ", " + "reserveOrdinals=" + reserveOrdinals + ", " + "lifecycle=" + lifecycle + ", " + "scaleStrategy=" + scaleStrategy + ", " + "persistentVolumeClaimRetentionPolicy=" + persistentVolumeClaimRetentionPolicy + ", " + "ordinals=" + ordinals + ", " + "volumeClaimUpdateStrategy=" + volumeClaimUpdateStrategy + '}';
    }
}
