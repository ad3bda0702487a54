package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Observed state of one subset. {@code missingReplicas} is how many more pods the subset takes, -1 when it has no
 * {@code maxReplicas}. The record maps hold pod name (or the generated id of a pod admitted without a name) to the
 * RFC 3339 time the webhook admitted its creation or deletion, until the controller sees it happen.
 */
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
    private List<WorkloadSpreadSubsetCondition> conditions;
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

    public WorkloadSpreadSubsetStatus() {
    }

    public WorkloadSpreadSubsetStatus(String name, int replicas, int missingReplicas) {
        this.name = name;
        this.replicas = replicas;
        this.missingReplicas = missingReplicas;
    }

    /** A deep copy (maps and condition list copied), for code that changes a status it read from a cache. */
    public WorkloadSpreadSubsetStatus copy() {
        WorkloadSpreadSubsetStatus c = new WorkloadSpreadSubsetStatus(name, replicas, missingReplicas);
        if (conditions != null) {
            c.conditions = new ArrayList<>();
            for (WorkloadSpreadSubsetCondition cond : conditions) {
                c.conditions.add(cond.copy());
            }
        }
        c.creatingPods = creatingPods == null ? null : new LinkedHashMap<>(creatingPods);
        c.deletingPods = deletingPods == null ? null : new LinkedHashMap<>(deletingPods);
        getAdditionalProperties().forEach(c::setAdditionalProperty);
        return c;
    }

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

    public List<WorkloadSpreadSubsetCondition> getConditions() {
        return conditions;
    }

    public void setConditions(List<WorkloadSpreadSubsetCondition> conditions) {
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

    /** The creating records, never null (a new empty map is not stored). */
    public Map<String, String> creatingPods() {
        return creatingPods == null ? Map.of() : creatingPods;
    }

    /** The deleting records, never null (a new empty map is not stored). */
    public Map<String, String> deletingPods() {
        return deletingPods == null ? Map.of() : deletingPods;
    }

    /** The conditions, never null. */
    public List<WorkloadSpreadSubsetCondition> conditions() {
        return conditions == null ? List.of() : conditions;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WorkloadSpreadSubsetStatus s && Objects.equals(name, s.name) && replicas == s.replicas
                && missingReplicas == s.missingReplicas && conditions().equals(s.conditions())
                && creatingPods().equals(s.creatingPods()) && deletingPods().equals(s.deletingPods())
                && unknownFieldsEqual(s);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, replicas, missingReplicas, conditions(), creatingPods(), deletingPods());
    }

    @Override
    public String toString() {
        return "{name=" + name + ", replicas=" + replicas + ", missingReplicas=" + missingReplicas + ", creatingPods="
                + creatingPods().keySet() + ", deletingPods=" + deletingPods().keySet() + ", conditions="
                + conditions() + "}";
    }
}
