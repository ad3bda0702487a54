package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.Toleration;

import java.util.List;

/**
 * One subset of a v1beta1 WorkloadSpread: v1alpha1's subset with {@code requiredNodeSelectorTerm} spelled
 * {@code requiredNodeSelector} and {@code preferredNodeSelectorTerms} spelled {@code preferredNodeSelector}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class WorkloadSpreadSubset extends UnknownFields {
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("Name of the subset, unique in the WorkloadSpread.")
    private String name;
    @JsonPropertyDescription("Node selector term the subset's pods must satisfy.")
    private NodeSelectorTerm requiredNodeSelector;
    @JsonPropertyDescription("Node preferences the subset's pods get.")
    private List<PreferredSchedulingTerm> preferredNodeSelector;
    @JsonPropertyDescription("Tolerations the subset's pods get.")
    private List<Toleration> tolerations;
    @JsonPropertyDescription("The most pods this subset takes: a number or a percentage of the workload's "
            + "replicas; unset means no limit.")
    private IntOrString maxReplicas;
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    @JsonPropertyDescription("Strategic-merge patch applied to the subset's pods (metadata and spec).")
    private JsonNode patch;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public NodeSelectorTerm getRequiredNodeSelector() {
        return requiredNodeSelector;
    }

    public void setRequiredNodeSelector(NodeSelectorTerm requiredNodeSelector) {
        this.requiredNodeSelector = requiredNodeSelector;
    }

    public List<PreferredSchedulingTerm> getPreferredNodeSelector() {
        return preferredNodeSelector;
    }

    public void setPreferredNodeSelector(List<PreferredSchedulingTerm> preferredNodeSelector) {
        this.preferredNodeSelector = preferredNodeSelector;
    }

    public List<Toleration> getTolerations() {
        return tolerations;
    }

    public void setTolerations(List<Toleration> tolerations) {
        this.tolerations = tolerations;
    }

    public IntOrString getMaxReplicas() {
        return maxReplicas;
    }

    public void setMaxReplicas(IntOrString maxReplicas) {
        this.maxReplicas = maxReplicas;
    }

    public JsonNode getPatch() {
        return patch;
    }

    public void setPatch(JsonNode patch) {
        this.patch = patch;
    }
}
