package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;

import java.util.Objects;

/** Update order decided by a priority strategy instead of ordinals. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UnorderedUpdateStrategy extends UnknownFields {
    @JsonPropertyDescription("Weight or order priority of pods for update.")
    private UpdatePriorityStrategy priorityStrategy;

    public UpdatePriorityStrategy getPriorityStrategy() {
        return priorityStrategy;
    }

    public void setPriorityStrategy(UpdatePriorityStrategy priorityStrategy) {
        this.priorityStrategy = priorityStrategy;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof UnorderedUpdateStrategy that)) return false;
        return Objects.equals(priorityStrategy, that.priorityStrategy)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(priorityStrategy, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "UnorderedUpdateStrategy{" + "priorityStrategy=" + priorityStrategy + '}';
    }
}
