package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodAnnotation;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.List;

/** What a v1beta1 PersistentPodState records and for which workload; only the topology terms differ from v1alpha1. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PersistentPodStateSpec extends UnknownFields {
    @Required
    @JsonProperty("targetRef")
    @JsonPropertyDescription("The workload whose pods are recorded: a StatefulSet (apps/v1 or apps.kruise.io) or a "
            + "kind listed in PPS_Watch_Custom_Workload_WhiteList.")
    private TargetReference targetReference;
    @JsonPropertyDescription("Pod annotations whose values are recorded.")
    private List<PersistentPodAnnotation> persistentPodAnnotations;
    @JsonPropertyDescription("Node label keys a re-created pod must match (merged into its nodeSelector).")
    private PersistentPodStateTopologyTerm requiredPersistentTopology;
    @JsonPropertyDescription("Node label keys a re-created pod prefers, with weights (preferred node affinity).")
    private List<PersistentPodStatePreferredTopologyTerm> preferredPersistentTopology;
    @JsonPropertyDescription("WhenScaled (default): states go on scale-down; WhenDeleted: when the workload goes.")
    private String persistentPodStateRetentionPolicy;

    public TargetReference getTargetReference() {
        return targetReference;
    }

    public void setTargetReference(TargetReference targetReference) {
        this.targetReference = targetReference;
    }

    public List<PersistentPodAnnotation> getPersistentPodAnnotations() {
        return persistentPodAnnotations;
    }

    public void setPersistentPodAnnotations(List<PersistentPodAnnotation> persistentPodAnnotations) {
        this.persistentPodAnnotations = persistentPodAnnotations;
    }

    public PersistentPodStateTopologyTerm getRequiredPersistentTopology() {
        return requiredPersistentTopology;
    }

    public void setRequiredPersistentTopology(PersistentPodStateTopologyTerm requiredPersistentTopology) {
        this.requiredPersistentTopology = requiredPersistentTopology;
    }

    public List<PersistentPodStatePreferredTopologyTerm> getPreferredPersistentTopology() {
        return preferredPersistentTopology;
    }

    public void setPreferredPersistentTopology(List<PersistentPodStatePreferredTopologyTerm> preferredPersistentTopology) {
        this.preferredPersistentTopology = preferredPersistentTopology;
    }

    public String getPersistentPodStateRetentionPolicy() {
        return persistentPodStateRetentionPolicy;
    }

    public void setPersistentPodStateRetentionPolicy(String persistentPodStateRetentionPolicy) {
        this.persistentPodStateRetentionPolicy = persistentPodStateRetentionPolicy;
    }
}
