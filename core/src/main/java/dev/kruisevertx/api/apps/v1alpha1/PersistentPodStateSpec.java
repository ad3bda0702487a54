package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** What a PersistentPodState records and for which workload. */
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
    private NodeTopologyTerm requiredPersistentTopology;
    @JsonPropertyDescription("Node label keys a re-created pod prefers, with weights (preferred node affinity).")
    private List<PreferredTopologyTerm> preferredPersistentTopology;
    @JsonPropertyDescription("WhenScaled (default): states go on scale-down; WhenDeleted: when the workload goes.")
    private String persistentPodStateRetentionPolicy;

    public TargetReference getTargetReference() {
        return targetReference;
    }

    public void setTargetReference(TargetReference targetReference) {
        this.targetReference = targetReference;
    }

    /** The target, never null. */
    public TargetReference targetRef() {
        return targetReference == null ? new TargetReference() : targetReference;
    }

    public List<PersistentPodAnnotation> getPersistentPodAnnotations() {
        return persistentPodAnnotations;
    }

    public void setPersistentPodAnnotations(List<PersistentPodAnnotation> persistentPodAnnotations) {
        this.persistentPodAnnotations = persistentPodAnnotations;
    }

    public NodeTopologyTerm getRequiredPersistentTopology() {
        return requiredPersistentTopology;
    }

    public void setRequiredPersistentTopology(NodeTopologyTerm requiredPersistentTopology) {
        this.requiredPersistentTopology = requiredPersistentTopology;
    }

    public List<PreferredTopologyTerm> getPreferredPersistentTopology() {
        return preferredPersistentTopology;
    }

    public void setPreferredPersistentTopology(List<PreferredTopologyTerm> preferredPersistentTopology) {
        this.preferredPersistentTopology = preferredPersistentTopology;
    }

    public String getPersistentPodStateRetentionPolicy() {
        return persistentPodStateRetentionPolicy;
    }

    public void setPersistentPodStateRetentionPolicy(String persistentPodStateRetentionPolicy) {
        this.persistentPodStateRetentionPolicy = persistentPodStateRetentionPolicy;
    }

    /** The policy as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<PersistentPodStateRetentionPolicyType> retentionPolicyValue() {
        return PersistentPodStateRetentionPolicyType.fromValue(persistentPodStateRetentionPolicy);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PersistentPodStateSpec s && Objects.equals(targetReference, s.targetReference)
                && Objects.equals(persistentPodAnnotations, s.persistentPodAnnotations)
                && Objects.equals(requiredPersistentTopology, s.requiredPersistentTopology)
                && Objects.equals(preferredPersistentTopology, s.preferredPersistentTopology)
                && Objects.equals(persistentPodStateRetentionPolicy, s.persistentPodStateRetentionPolicy)
                && unknownFieldsEqual(s);
    }

    @Override
    public int hashCode() {
        return Objects.hash(targetReference, requiredPersistentTopology, preferredPersistentTopology);
    }
}
