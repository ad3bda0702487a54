package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.apps.v1alpha1.Topology;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentUpdateStrategy;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;

/** Desired state of a v1beta1 UnitedDeployment: v1alpha1's, with a v1beta1 CloneSet spec in a cloneSetTemplate. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UnitedDeploymentSpec extends UnknownFields {
    @SpecReplicas
    @JsonPropertyDescription("Total desired replicas of all the subsets; 1 when unset.")
    private Integer replicas;
    @Required
    @JsonPropertyDescription("Label query over the pods; must match the labels of the subset template's pod template.")
    private LabelSelector selector;
    @JsonPropertyDescription("The workload every subset is made from: exactly one of the four templates.")
    private SubsetTemplate template;
    @JsonPropertyDescription("The subsets and how pods are spread over them.")
    private Topology topology;
    @JsonPropertyDescription("How a template change reaches the subsets.")
    private UnitedDeploymentUpdateStrategy updateStrategy;
    @JsonPropertyDescription("Number of ControllerRevisions kept; 10 when unset.")
    private Integer revisionHistoryLimit;

    /** The template, never null. */
    public SubsetTemplate template() {
        return template == null ? new SubsetTemplate() : template;
    }

    /** The topology, never null. */
    public Topology topology() {
        return topology == null ? new Topology() : topology;
    }

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

    public SubsetTemplate getTemplate() {
        return template;
    }

    public void setTemplate(SubsetTemplate template) {
        this.template = template;
    }

    public Topology getTopology() {
        return topology;
    }

    public void setTopology(Topology topology) {
        this.topology = topology;
    }

    public UnitedDeploymentUpdateStrategy getUpdateStrategy() {
        return updateStrategy;
    }

    public void setUpdateStrategy(UnitedDeploymentUpdateStrategy updateStrategy) {
        this.updateStrategy = updateStrategy;
    }

    public Integer getRevisionHistoryLimit() {
        return revisionHistoryLimit;
    }

    public void setRevisionHistoryLimit(Integer revisionHistoryLimit) {
        this.revisionHistoryLimit = revisionHistoryLimit;
    }
}
