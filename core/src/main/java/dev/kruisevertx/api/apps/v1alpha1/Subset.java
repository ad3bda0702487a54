package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Toleration;

import java.util.List;

/** One subset of a UnitedDeployment: its name, where its pods go, and how many it gets. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class Subset extends UnknownFields {
    @Required
    @JsonPropertyDescription("DNS label unique among the subsets; the subset workload is named <ud-name>-<subset-name>-<random>.")
    private String name;
    @JsonPropertyDescription("Node selector term merged into the pods' required node affinity; not allowed to change.")
    private NodeSelectorTerm nodeSelectorTerm;
    @JsonPropertyDescription("Tolerations added to the pods of this subset; not allowed to change.")
    private List<Toleration> tolerations;
    @JsonPropertyDescription("Pods of this subset: a number or a percentage of the UnitedDeployment's replicas; "
            + "unset means the controller spreads the rest evenly. Exclusive with minReplicas/maxReplicas.")
    private IntOrString replicas;
    @JsonPropertyDescription("Lower bound of this subset's pods, satisfied in topology order; 0 when unset.")
    private IntOrString minReplicas;
    @JsonPropertyDescription("Upper bound of this subset's pods; unset means no limit.")
    private IntOrString maxReplicas;
    @PreserveUnknownFields
    @SchemaFrom(type = AnyType.class)
    @JsonPropertyDescription("Strategic merge patch applied to the subset workload's template; takes precedence "
            + "over the other fields.")
    private JsonNode patch;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public NodeSelectorTerm getNodeSelectorTerm() {
        return nodeSelectorTerm;
    }

    public void setNodeSelectorTerm(NodeSelectorTerm nodeSelectorTerm) {
        this.nodeSelectorTerm = nodeSelectorTerm;
    }

    public List<Toleration> getTolerations() {
        return tolerations;
    }

    public void setTolerations(List<Toleration> tolerations) {
        this.tolerations = tolerations;
    }

    public IntOrString getReplicas() {
        return replicas;
    }

    public void setReplicas(IntOrString replicas) {
        this.replicas = replicas;
    }

    public IntOrString getMinReplicas() {
        return minReplicas;
    }

    public void setMinReplicas(IntOrString minReplicas) {
        this.minReplicas = minReplicas;
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
