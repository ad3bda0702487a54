package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.Objects;

/** Desired state of an Advanced DaemonSet (v1beta1, the storage version). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class DaemonSetSpec extends UnknownFields {
    @Required
    @JsonPropertyDescription("Label query over the pods this DaemonSet owns; must match the template's labels.")
    private LabelSelector selector;

    @Required
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    @JsonPropertyDescription("Template of the pods; one pod runs on every node the template fits.")
    private PodTemplateSpec template;

    @JsonPropertyDescription("How pods move to a new template revision.")
    private DaemonSetUpdateStrategy updateStrategy;

    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Seconds a new pod must be ready, without a container crashing, to count as available; 0 when unset.")
    private int minReadySeconds;

    @JsonPropertyDescription("Most pods (or percentage of desired pods) created or deleted in one sync; 250 when unset.")
    private IntOrString burstReplicas;

    @JsonPropertyDescription("How many old ControllerRevisions to keep; 10 when unset.")
    private Integer revisionHistoryLimit;

    @JsonPropertyDescription("Hooks around deletion (preDelete).")
    private Lifecycle lifecycle;

    @JsonPropertyDescription("How pods are created on nodes that need one.")
    private DaemonSetScaleStrategy scaleStrategy;

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

    public DaemonSetUpdateStrategy getUpdateStrategy() {
        return updateStrategy;
    }

    public void setUpdateStrategy(DaemonSetUpdateStrategy updateStrategy) {
        this.updateStrategy = updateStrategy;
    }

    public int getMinReadySeconds() {
        return minReadySeconds;
    }

    public void setMinReadySeconds(int minReadySeconds) {
        this.minReadySeconds = minReadySeconds;
    }

    public IntOrString getBurstReplicas() {
        return burstReplicas;
    }

    public void setBurstReplicas(IntOrString burstReplicas) {
        this.burstReplicas = burstReplicas;
    }

    public Integer getRevisionHistoryLimit() {
        return revisionHistoryLimit;
    }

    public void setRevisionHistoryLimit(Integer revisionHistoryLimit) {
        this.revisionHistoryLimit = revisionHistoryLimit;
    }

    public Lifecycle getLifecycle() {
        return lifecycle;
    }

    public void setLifecycle(Lifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    public DaemonSetScaleStrategy getScaleStrategy() {
        return scaleStrategy;
    }

    public void setScaleStrategy(DaemonSetScaleStrategy scaleStrategy) {
        this.scaleStrategy = scaleStrategy;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof DaemonSetSpec that)) return false;
        return Objects.equals(selector, that.selector)
                && Objects.equals(template, that.template)
                && Objects.equals(updateStrategy, that.updateStrategy)
                && minReadySeconds == that.minReadySeconds
                && Objects.equals(burstReplicas, that.burstReplicas)
                && Objects.equals(revisionHistoryLimit, that.revisionHistoryLimit)
                && Objects.equals(lifecycle, that.lifecycle)
                && Objects.equals(scaleStrategy, that.scaleStrategy)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(selector, template, updateStrategy, minReadySeconds, burstReplicas, revisionHistoryLimit, lifecycle, scaleStrategy, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "DaemonSetSpec{" + "selector=" + selector + ", " + "template=" + template + ", " + "updateStrategy=" + updateStrategy + ", " + "minReadySeconds=" + minReadySeconds + ", " + "burstReplicas=" + burstReplicas + ", " + "revisionHistoryLimit=" + revisionHistoryLimit + ", " + "lifecycle=" + lifecycle + ", " + "scaleStrategy=" + scaleStrategy + '}';
    }
}
