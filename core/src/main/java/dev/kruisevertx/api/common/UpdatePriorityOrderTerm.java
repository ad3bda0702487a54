package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

import java.util.Objects;

/** Orders pods by the number found at the end of the value of one pod label ("5" in "sts-5"). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UpdatePriorityOrderTerm extends UnknownFields {
    @Required
    @JsonPropertyDescription("Pod label whose value (its last integer) orders the pods.")
    private String orderedKey;

    public UpdatePriorityOrderTerm() {
    }

    public UpdatePriorityOrderTerm(String orderedKey) {
        this.orderedKey = orderedKey;
    }

    public String getOrderedKey() {
        return orderedKey;
    }

    public void setOrderedKey(String orderedKey) {
        this.orderedKey = orderedKey;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof UpdatePriorityOrderTerm that)) return false;
        return Objects.equals(orderedKey, that.orderedKey) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(orderedKey, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "UpdatePriorityOrderTerm{orderedKey=" + orderedKey + '}';
    }
}
