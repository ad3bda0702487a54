package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.List;
import java.util.Objects;

/** Which pods a rolling update picks first. OpenKruise accepts either order terms or weight terms, never both. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UpdatePriorityStrategy extends UnknownFields {
    @JsonPropertyDescription("Pods having the first key are ordered by its value and come first, then pods having "
            + "the second key, and so on.")
    private List<UpdatePriorityOrderTerm> orderPriority;
    @JsonPropertyDescription("Pods are ordered by the sum of the weights of the terms that match them.")
    private List<UpdatePriorityWeightTerm> weightPriority;

    public List<UpdatePriorityOrderTerm> getOrderPriority() {
        return orderPriority;
    }

    public void setOrderPriority(List<UpdatePriorityOrderTerm> orderPriority) {
        this.orderPriority = orderPriority;
    }

    public List<UpdatePriorityWeightTerm> getWeightPriority() {
        return weightPriority;
    }

    public void setWeightPriority(List<UpdatePriorityWeightTerm> weightPriority) {
        this.weightPriority = weightPriority;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof UpdatePriorityStrategy that)) return false;
        return Objects.equals(orderPriority, that.orderPriority) && Objects.equals(weightPriority, that.weightPriority)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(orderPriority, weightPriority, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "UpdatePriorityStrategy{orderPriority=" + orderPriority + ", weightPriority=" + weightPriority + '}';
    }
}
