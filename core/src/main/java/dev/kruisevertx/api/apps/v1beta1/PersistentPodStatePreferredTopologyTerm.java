package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

/** OpenKruise master's v1beta1 {@code PreferredTopologyTerm}: a weight and a {@link PersistentPodStateTopologyTerm}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PersistentPodStatePreferredTopologyTerm extends UnknownFields {
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("Weight of the preferred node-affinity term.")
    private int weight;
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("The node label keys of the term.")
    private PersistentPodStateTopologyTerm preference;

    public int getWeight() {
        return weight;
    }

    public void setWeight(int weight) {
        this.weight = weight;
    }

    public PersistentPodStateTopologyTerm getPreference() {
        return preference;
    }

    public void setPreference(PersistentPodStateTopologyTerm preference) {
        this.preference = preference;
    }
}
