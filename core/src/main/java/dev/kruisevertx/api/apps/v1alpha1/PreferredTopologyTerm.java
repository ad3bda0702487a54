package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.Objects;

/** A preferred topology: node label keys and the weight of the preferred node-affinity term built from them. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PreferredTopologyTerm extends UnknownFields {
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("Weight of the preferred node-affinity term.")
    private int weight;
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("The node label keys of the term.")
    private NodeTopologyTerm preference;

    public PreferredTopologyTerm() {
    }

    public PreferredTopologyTerm(int weight, NodeTopologyTerm preference) {
        this.weight = weight;
        this.preference = preference;
    }

    public int getWeight() {
        return weight;
    }

    public void setWeight(int weight) {
        this.weight = weight;
    }

    public NodeTopologyTerm getPreference() {
        return preference;
    }

    public void setPreference(NodeTopologyTerm preference) {
        this.preference = preference;
    }

    /** The preference, never null. */
    public NodeTopologyTerm preference() {
        return preference == null ? new NodeTopologyTerm() : preference;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PreferredTopologyTerm t && weight == t.weight && Objects.equals(preference, t.preference)
                && unknownFieldsEqual(t);
    }

    @Override
    public int hashCode() {
        return Objects.hash(weight, preference);
    }
}
