package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Condition;

import java.util.List;
import java.util.Map;

/** Observed state of one subset in v1beta1: v1alpha1's, with the conditions as standard {@code metav1.Condition}s. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
public class WorkloadSpreadSubsetStatus extends UnknownFields {
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("Name of the subset.")
    private String name;
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("Active pods observed in the subset.")
    private int replicas;
    @JsonPropertyDescription("Observations about the subset, e.g. Schedulable.")
    private List<Condition> conditions;
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("How many more pods the subset takes; 0 when it is full, -1 when it has no maxReplicas.")
    private int missingReplicas;
    @JsonPropertyDescription("Pods whose creation the webhook admitted into this subset and the controller has not "
            + "seen yet, with the admission time.")
    private Map<String, String> creatingPods;
    @JsonPropertyDescription("Pods whose deletion the webhook admitted from this subset and the controller has not "
            + "seen yet, with the admission time.")
    private Map<String, String> deletingPods;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public int getReplicas() {
        return replicas;
    }

    public void setReplicas(int replicas) {
        this.replicas = replicas;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public int getMissingReplicas() {
        return missingReplicas;
    }

    public void setMissingReplicas(int missingReplicas) {
        this.missingReplicas = missingReplicas;
    }

    public Map<String, String> getCreatingPods() {
        return creatingPods;
    }

    public void setCreatingPods(Map<String, String> creatingPods) {
        this.creatingPods = creatingPods;
    }

    public Map<String, String> getDeletingPods() {
        return deletingPods;
    }

    public void setDeletingPods(Map<String, String> deletingPods) {
        this.deletingPods = deletingPods;
    }
}
