package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.Objects;

/** Numbering of the pods of a StatefulSet. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class StatefulSetOrdinals extends UnknownFields {
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("First ordinal; 0 by default.")
    private int start;

    public int getStart() {
        return start;
    }

    public void setStart(int start) {
        this.start = start;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof StatefulSetOrdinals that)) return false;
        return start == that.start
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(start, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "StatefulSetOrdinals{" + "start=" + start + '}';
    }
}
