package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Which pods a rolling update picks first. OpenKruise accepts either order terms or weight terms, never both. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UpdatePriorityStrategy extends UnknownFields {
    @JsonPropertyDescription("Pods having the first key are ordered by its value and come first, then pods having "
            + "the second key, and so on.")
    private List<UpdatePriorityOrderTerm> orderPriority;
    @JsonPropertyDescription("Pods are ordered by the sum of the weights of the terms that match them.")
    private List<UpdatePriorityWeightTerm> weightPriority;

    /**
     * The first problem that makes this strategy invalid, worded as OpenKruise's webhook words it; empty when valid.
     */
    @JsonIgnore
    public Optional<String> fieldsValidation() {
        boolean hasWeights = weightPriority != null && !weightPriority.isEmpty();
        if (hasWeights && orderPriority != null && !orderPriority.isEmpty()) {
            return Optional.of("only one of weightPriority and orderPriority can be used");
        }
        if (hasWeights) {
            for (UpdatePriorityWeightTerm w : weightPriority) {
                if (w.getWeight() < 0 || w.getWeight() > 100) {
                    return Optional.of("weight must be valid number in the range 1-100");
                }
                if (isEmpty(w.getMatchSelector())) {
                    return Optional.of("selector can not be empty");
                }
                Optional<String> invalid = selectorProblem(w.getMatchSelector());
                if (invalid.isPresent()) {
                    return Optional.of("invalid selector " + invalid.get());
                }
            }
        }
        if (orderPriority != null) {
            for (UpdatePriorityOrderTerm o : orderPriority) {
                if (o.getOrderedKey() == null || o.getOrderedKey().isEmpty()) {
                    return Optional.of("order key can not be empty");
                }
            }
        }
        return Optional.empty();
    }

    private static boolean isEmpty(LabelSelector s) {
        return s == null || (s.getMatchLabels() == null || s.getMatchLabels().isEmpty())
                && (s.getMatchExpressions() == null || s.getMatchExpressions().isEmpty());
    }

    private static Optional<String> selectorProblem(LabelSelector s) {
        if (s.getMatchExpressions() == null) {
            return Optional.empty();
        }
        for (LabelSelectorRequirement r : s.getMatchExpressions()) {
            int values = r.getValues() == null ? 0 : r.getValues().size();
            String op = r.getOperator();
            if ("In".equals(op) || "NotIn".equals(op)) {
                if (values == 0) {
                    return Optional.of("for 'in', 'notin' operators, values set can't be empty");
                }
            } else if ("Exists".equals(op) || "DoesNotExist".equals(op)) {
                if (values != 0) {
                    return Optional.of("values set must be empty for exists and does not exist");
                }
            } else {
                return Optional.of("\"" + op + "\" is not a valid label selector operator");
            }
        }
        return Optional.empty();
    }

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
