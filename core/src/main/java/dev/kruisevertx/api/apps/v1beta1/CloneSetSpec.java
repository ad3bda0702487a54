package dev.kruisevertx.api.apps.v1beta1;

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
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;

import java.util.List;
import java.util.Objects;

/** Desired state of a v1beta1 CloneSet: v1alpha1's fields with the v1beta1 scale and update strategies. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class CloneSetSpec extends UnknownFields {
    @SpecReplicas
    @JsonPropertyDescription("Desired number of pods; 1 when unset.")
    private Integer replicas;

    @Required
    @JsonPropertyDescription("Label query over the pods this CloneSet owns; must match the template's labels.")
    private LabelSelector selector;

    // Like OpenKruise, the embedded pod and PVC templates are schemaless in the CRD: the API server keeps them as
    // given and the webhook validates them, so the CRD stays small.
    @Required
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    @JsonPropertyDescription("Template of the pods this CloneSet creates.")
    private PodTemplateSpec template;

    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    @JsonSerialize(contentUsing = EmbeddedTemplateSerializer.class)
    @JsonPropertyDescription("PVCs created for every pod instance and mounted by its pods.")
    private List<PersistentVolumeClaim> volumeClaimTemplates;

    @JsonPropertyDescription("How pods are created and deleted when scaling.")
    private CloneSetScaleStrategy scaleStrategy;

    @JsonPropertyDescription("How pods move to a new template revision.")
    private CloneSetUpdateStrategy updateStrategy;

    @JsonPropertyDescription("How many old ControllerRevisions to keep; 10 when unset.")
    private Integer revisionHistoryLimit;

    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Seconds a new pod must be ready, without a container crashing, before it counts as "
            + "available.")
    private int minReadySeconds;

    @JsonPropertyDescription("Hooks around pod creation, in-place update and deletion.")
    private Lifecycle lifecycle;

    @JsonPropertyDescription("Seconds a rollout may make no progress before it is reported stuck (a RolloutStuck "
            + "Event naming what holds it, and the kruise_workload_blocked metric); the manager's default (600) "
            + "when unset.")
    private Integer progressDeadlineSeconds;

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

    public CloneSetScaleStrategy getScaleStrategy() {
        return scaleStrategy;
    }

    public void setScaleStrategy(CloneSetScaleStrategy scaleStrategy) {
        this.scaleStrategy = scaleStrategy;
    }

    public CloneSetUpdateStrategy getUpdateStrategy() {
        return updateStrategy;
    }

    public void setUpdateStrategy(CloneSetUpdateStrategy updateStrategy) {
        this.updateStrategy = updateStrategy;
    }

    public Integer getRevisionHistoryLimit() {
        return revisionHistoryLimit;
    }

    public void setRevisionHistoryLimit(Integer revisionHistoryLimit) {
        this.revisionHistoryLimit = revisionHistoryLimit;
    }

    public int getMinReadySeconds() {
        return minReadySeconds;
    }

    public void setMinReadySeconds(int minReadySeconds) {
        this.minReadySeconds = minReadySeconds;
    }

    public Integer getProgressDeadlineSeconds() {
        return progressDeadlineSeconds;
    }

    public void setProgressDeadlineSeconds(Integer progressDeadlineSeconds) {
        this.progressDeadlineSeconds = progressDeadlineSeconds;
    }

    public Lifecycle getLifecycle() {
        return lifecycle;
    }

    public void setLifecycle(Lifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof CloneSetSpec that)) return false;
        return minReadySeconds == that.minReadySeconds && Objects.equals(replicas, that.replicas)
                && Objects.equals(selector, that.selector) && Objects.equals(template, that.template)
                && Objects.equals(volumeClaimTemplates, that.volumeClaimTemplates)
                && Objects.equals(scaleStrategy, that.scaleStrategy)
                && Objects.equals(updateStrategy, that.updateStrategy)
                && Objects.equals(revisionHistoryLimit, that.revisionHistoryLimit)
                && Objects.equals(lifecycle, that.lifecycle)
                && Objects.equals(progressDeadlineSeconds, that.progressDeadlineSeconds) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(replicas, selector, template, volumeClaimTemplates, scaleStrategy, updateStrategy,
                revisionHistoryLimit, minReadySeconds, lifecycle, progressDeadlineSeconds, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "CloneSetSpec{replicas=" + replicas + ", selector=" + selector + ", template=" + template
                + ", volumeClaimTemplates=" + volumeClaimTemplates + ", scaleStrategy=" + scaleStrategy
                + ", updateStrategy=" + updateStrategy + ", revisionHistoryLimit=" + revisionHistoryLimit
                + ", minReadySeconds=" + minReadySeconds + ", lifecycle=" + lifecycle
                + ", progressDeadlineSeconds=" + progressDeadlineSeconds + '}';
    }
}
