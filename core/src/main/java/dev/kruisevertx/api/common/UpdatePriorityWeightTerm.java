package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LabelSelector;

import java.util.Objects;

/** Adds {@code weight} to the update priority of every pod matched by {@code matchSelector}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UpdatePriorityWeightTerm extends UnknownFields {
    @Required
    @JsonPropertyDescription("Weight added for pods the selector matches, 1-100.")
    private int weight;
    @Required
    @JsonPropertyDescription("Selects pods by their labels.")
    private LabelSelector matchSelector;

    public UpdatePriorityWeightTerm() {
    }

    public UpdatePriorityWeightTerm(int weight, LabelSelector matchSelector) {
        this.weight = weight;
        this.matchSelector = matchSelector;
    }

    public int getWeight() {
        return weight;
    }

    public void setWeight(int weight) {
        this.weight = weight;
    }

    public LabelSelector getMatchSelector() {
        return matchSelector;
    }

    public void setMatchSelector(LabelSelector matchSelector) {
        this.matchSelector = matchSelector;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof UpdatePriorityWeightTerm that)) return false;
        return weight == that.weight && Objects.equals(matchSelector, that.matchSelector) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(weight, matchSelector, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "UpdatePriorityWeightTerm{weight=" + weight + ", matchSelector=" + matchSelector + '}';
    }
}
